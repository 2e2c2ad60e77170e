import { mkdtempSync, readFileSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { loadConfig } from './config.ts'

const tempDir = () => mkdtempSync(join(tmpdir(), 'config-'))

describe('loadConfig', () => {
  it('uses the documented defaults', () => {
    const config = loadConfig({ DATA_DIR: tempDir() })
    expect(config).toMatchObject({
      port: 8080,
      databaseUrl: undefined,
      sandbox: true,
      accessTokenTtl: 900,
      refreshTokenTtl: 30 * 86_400,
      refreshReuseGrace: 30,
    })
  })

  it('turns the sandbox off by default when a real PostgreSQL is configured', () => {
    const config = loadConfig({ DATA_DIR: tempDir(), DATABASE_URL: 'postgres://db/app' })
    expect(config.sandbox).toBe(false)
  })

  it('lists every invalid setting in one error', () => {
    const bad = {
      PORT: 'eighty',
      ACCESS_TOKEN_TTL: '-5',
      SANDBOX: 'maybe',
      DATABASE_URL: 'mysql://x',
    }
    const load = () => loadConfig({ DATA_DIR: tempDir(), ...bad })
    for (const name of Object.keys(bad)) expect(load).toThrowError(name)
  })

  it('generates secrets on first start, keeps them private, and reuses them after', () => {
    const dataDir = tempDir()
    const first = loadConfig({ DATA_DIR: dataDir })
    const second = loadConfig({ DATA_DIR: dataDir })
    expect(first.secrets.jwtKey).toHaveLength(32)
    expect(Buffer.from(second.secrets.jwtKey)).toEqual(Buffer.from(first.secrets.jwtKey))
    expect(Buffer.from(first.secrets.refreshKey)).not.toEqual(Buffer.from(first.secrets.jwtKey))
    const file = join(dataDir, 'secrets.json')
    expect(statSync(file).mode & 0o777).toBe(0o600)
    expect(Object.keys(JSON.parse(readFileSync(file, 'utf8')))).toEqual(['jwtKey', 'refreshKey'])
  })

  it('takes secrets from the environment and refuses short ones', () => {
    const key = Buffer.alloc(32, 7).toString('base64url')
    const config = loadConfig({ DATA_DIR: tempDir(), JWT_SECRET: key, REFRESH_TOKEN_SECRET: key })
    expect(Buffer.from(config.secrets.jwtKey)).toEqual(Buffer.alloc(32, 7))
    expect(() => loadConfig({ DATA_DIR: tempDir(), JWT_SECRET: 'short' })).toThrowError(
      /JWT_SECRET must be at least 32 bytes/,
    )
  })
})
