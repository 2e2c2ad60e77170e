import { mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { DEFAULT_DEMO_PASSWORD, loadConfig } from './config.ts'

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
    expect(Object.keys(JSON.parse(readFileSync(file, 'utf8')))).toEqual([
      'jwtKey',
      'refreshKey',
      'addressSeedKey',
      'cardDataKey',
      'cardCvk',
    ])
    expect(Buffer.from(second.secrets.addressSeedKey)).toEqual(
      Buffer.from(first.secrets.addressSeedKey),
    )
  })

  it('a secrets.json from before the address seed key gains it and keeps its other keys', () => {
    const dataDir = tempDir()
    const file = join(dataDir, 'secrets.json')
    const old = {
      jwtKey: Buffer.alloc(32, 1).toString('base64url'),
      refreshKey: Buffer.alloc(32, 2).toString('base64url'),
    }
    writeFileSync(file, JSON.stringify(old), { mode: 0o600 })
    const config = loadConfig({ DATA_DIR: dataDir })
    expect(Buffer.from(config.secrets.jwtKey)).toEqual(Buffer.alloc(32, 1))
    expect(config.secrets.addressSeedKey).toHaveLength(32)
    const kept = JSON.parse(readFileSync(file, 'utf8'))
    expect(kept).toMatchObject(old)
    expect(Buffer.from(kept.addressSeedKey, 'base64url')).toEqual(
      Buffer.from(config.secrets.addressSeedKey),
    )
    expect(statSync(file).mode & 0o777).toBe(0o600)
  })

  it('takes the address seed key from ADDRESS_SEED_KEY, exactly 32 bytes', () => {
    const key = Buffer.alloc(32, 9).toString('base64url')
    const config = loadConfig({ DATA_DIR: tempDir(), ADDRESS_SEED_KEY: key })
    expect(Buffer.from(config.secrets.addressSeedKey)).toEqual(Buffer.alloc(32, 9))
    const long = Buffer.alloc(48, 9).toString('base64url')
    expect(() => loadConfig({ DATA_DIR: tempDir(), ADDRESS_SEED_KEY: long })).toThrowError(
      /ADDRESS_SEED_KEY must be exactly 32 bytes/,
    )
  })

  it('jobs poll every 250 ms, sandbox blocks come every second, the demo is seeded in the sandbox', () => {
    const config = loadConfig({ DATA_DIR: tempDir() })
    expect(config.jobs).toEqual({ pollMs: 250, leaseMs: 60_000 })
    expect(config.sandboxChain).toEqual({ blockMs: 1_000, maxConfirmations: 3 })
    expect(config.demo).toEqual({ seed: true, password: DEFAULT_DEMO_PASSWORD })
    const production = loadConfig({ DATA_DIR: tempDir(), DATABASE_URL: 'postgres://db/app' })
    expect(production.demo.seed).toBe(false)
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
