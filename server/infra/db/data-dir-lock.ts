import {
  closeSync,
  mkdirSync,
  openSync,
  readFileSync,
  statSync,
  unlinkSync,
  writeSync,
} from 'node:fs'
import { join } from 'node:path'

/**
 * The embedded database (PGlite in DATA_DIR) takes one process at a time:
 * two that open the same directory both write, with no error, and corrupt
 * it. The server and the tenant CLI each hold this lock file while they have
 * it open. Created with O_EXCL, so exactly one process gets it; a file left
 * by a process that no longer runs (killed, crashed) is taken over.
 */
export const LOCK_FILE = 'database.lock'

export interface DataDirLock {
  readonly path: string
  /** Removes the file, if it is still this lock's. Idempotent. */
  release(): void
}

interface Holder {
  pid: number
  holder: string
  since: string
}

/** Another live process has the embedded database open. */
export class DataDirLockedError extends Error {
  constructor(
    readonly path: string,
    readonly by: Holder | undefined,
  ) {
    super(
      `The embedded database in ${path.replace(/\/[^/]+$/, '')} is in use` +
        (by ? ` by ${by.holder} (pid ${by.pid}, since ${by.since})` : '') +
        `: only one process may open it at a time. Stop it first, or remove ${path} if no such process runs.`,
    )
    this.name = 'DataDirLockedError'
  }
}

/**
 * Takes the lock of `dataDir` for `holder` (e.g. "the server"), or throws
 * DataDirLockedError while another live process holds it.
 */
export function acquireDataDirLock(dataDir: string, holder: string): DataDirLock {
  mkdirSync(dataDir, { recursive: true })
  const path = join(dataDir, LOCK_FILE)
  const mine: Holder = { pid: process.pid, holder, since: new Date().toISOString() }
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(path, 'wx', 0o600)
      try {
        writeSync(fd, `${JSON.stringify(mine)}\n`)
      } finally {
        closeSync(fd)
      }
      let released = false
      return {
        path,
        release() {
          if (released) return
          released = true
          const current = readHolder(path)
          if (current?.pid === mine.pid && current.since === mine.since) unlinkSync(path)
        },
      }
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
    }
    const current = readHolder(path)
    // A holder that is alive keeps it (this very process too: one opening at a time).
    if (current && isAlive(current.pid)) throw new DataDirLockedError(path, current)
    // A file not written yet is a taker between its create and its write.
    if (!current && isFresh(path)) throw new DataDirLockedError(path, undefined)
    // Its process gone, or unreadable for long: stale. Of two racing takers, one wins the retry.
    try {
      unlinkSync(path)
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error
    }
  }
  throw new DataDirLockedError(path, readHolder(path))
}

function readHolder(path: string): Holder | undefined {
  try {
    const parsed = JSON.parse(readFileSync(path, 'utf8')) as Partial<Holder>
    return typeof parsed.pid === 'number' && Number.isInteger(parsed.pid) && parsed.pid > 0
      ? {
          pid: parsed.pid,
          holder: String(parsed.holder ?? 'another process'),
          since: String(parsed.since ?? '?'),
        }
      : undefined
  } catch {
    return undefined
  }
}

function isFresh(path: string): boolean {
  try {
    return Date.now() - statSync(path).mtimeMs < 5_000
  } catch {
    return false
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    // EPERM: it exists, owned by another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}

/** True when the database is the embedded one on disk (not memory://, not PostgreSQL). */
export function isEmbeddedOnDisk(databaseUrl: string | undefined): boolean {
  return !databaseUrl?.startsWith('postgres') && databaseUrl !== 'memory://'
}
