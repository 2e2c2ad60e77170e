import { spawnSync } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import {
  acquireDataDirLock,
  DataDirLockedError,
  isEmbeddedOnDisk,
  LOCK_FILE,
} from './data-dir-lock.ts'

describe('the embedded database’s lock file', () => {
  const dirs: string[] = []
  const tempDir = () => {
    const dir = mkdtempSync(join(tmpdir(), 'data-dir-lock-'))
    dirs.push(dir)
    return dir
  }
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
  })

  it('one holder at a time: a second taker is refused, saying who holds it', () => {
    const dir = tempDir()
    const lock = acquireDataDirLock(dir, 'the server')
    expect(JSON.parse(readFileSync(join(dir, LOCK_FILE), 'utf8'))).toMatchObject({
      pid: process.pid,
      holder: 'the server',
    })
    expect(() => acquireDataDirLock(dir, 'the tenant CLI')).toThrowError(DataDirLockedError)
    expect(() => acquireDataDirLock(dir, 'the tenant CLI')).toThrowError(
      new RegExp(`in use by the server \\(pid ${process.pid}`),
    )
    lock.release()
    expect(existsSync(join(dir, LOCK_FILE))).toBe(false)
    const again = acquireDataDirLock(dir, 'the tenant CLI')
    // Releasing twice, or an old lock, never removes another holder's file.
    lock.release()
    expect(existsSync(join(dir, LOCK_FILE))).toBe(true)
    again.release()
  })

  it('takes over a file left by a process that no longer runs', () => {
    const dir = tempDir()
    // A pid that surely ended: a child that has already exited.
    const gone = spawnSync(process.execPath, ['-e', '0']).pid
    writeFileSync(
      join(dir, LOCK_FILE),
      JSON.stringify({ pid: gone, holder: 'the server', since: '2020-01-01T00:00:00.000Z' }),
    )
    const lock = acquireDataDirLock(dir, 'the tenant CLI')
    expect(JSON.parse(readFileSync(join(dir, LOCK_FILE), 'utf8')).holder).toBe('the tenant CLI')
    lock.release()
  })

  it('a file being written (unreadable, fresh) counts as held', () => {
    const dir = tempDir()
    writeFileSync(join(dir, LOCK_FILE), '')
    expect(() => acquireDataDirLock(dir, 'the server')).toThrowError(DataDirLockedError)
  })

  it('locks only the embedded database on disk', () => {
    expect(isEmbeddedOnDisk(undefined)).toBe(true)
    expect(isEmbeddedOnDisk('memory://')).toBe(false)
    expect(isEmbeddedOnDisk('postgres://db/app')).toBe(false)
  })
})
