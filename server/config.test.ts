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

  it('listens on the loopback interface only, unless HOST says otherwise', () => {
    expect(loadConfig({ DATA_DIR: tempDir() }).host).toBe('127.0.0.1')
    expect(loadConfig({ DATA_DIR: tempDir(), HOST: '0.0.0.0' }).host).toBe('0.0.0.0')
  })

  it('Telegram names for the Mini App link: "@" tolerated, anything else refused', () => {
    const base = { DATA_DIR: tempDir() }
    expect(loadConfig(base).telegram).toMatchObject({
      botUsername: undefined,
      miniAppName: undefined,
    })
    const named = loadConfig({
      ...base,
      TELEGRAM_BOT_USERNAME: '@finplatform_bot',
      TELEGRAM_MINI_APP_NAME: 'wallet',
    })
    expect(named.telegram).toMatchObject({ botUsername: 'finplatform_bot', miniAppName: 'wallet' })
    expect(() => loadConfig({ ...base, TELEGRAM_BOT_USERNAME: 'no spaces' })).toThrow(
      /TELEGRAM_BOT_USERNAME must be a Telegram name/,
    )
  })

  it('turns the sandbox off by default when a real PostgreSQL is configured', () => {
    const config = loadConfig({ DATA_DIR: tempDir(), DATABASE_URL: 'postgres://db/app' })
    expect(config.sandbox).toBe(false)
  })

  it('sessions: 50 000 kept per process, heard of on DATABASE_URL unless DATABASE_DIRECT_URL', () => {
    const base = { DATA_DIR: tempDir() }
    expect(loadConfig(base)).toMatchObject({
      sessionCacheSize: 50_000,
      databaseDirectUrl: undefined,
    })
    expect(loadConfig({ ...base, SESSION_CACHE_SIZE: '0' }).sessionCacheSize).toBe(0)
    const direct = {
      DATABASE_URL: 'postgres://bouncer/app',
      DATABASE_DIRECT_URL: 'postgres://db/app',
    }
    expect(loadConfig({ ...base, ...direct }).databaseDirectUrl).toBe('postgres://db/app')
    expect(() => loadConfig({ ...base, DATABASE_DIRECT_URL: 'postgres://db/app' })).toThrow(
      /DATABASE_DIRECT_URL needs DATABASE_URL to be a PostgreSQL/,
    )
    expect(() => loadConfig({ ...base, SESSION_CACHE_SIZE: '-1' })).toThrow(/SESSION_CACHE_SIZE/)
  })

  it('TRUST_PROXY: nobody by default, else all, a hop count or the named proxies', () => {
    const base = { DATA_DIR: tempDir() }
    expect(loadConfig(base).trustProxy).toBe(false)
    expect(loadConfig({ ...base, TRUST_PROXY: 'false' }).trustProxy).toBe(false)
    expect(loadConfig({ ...base, TRUST_PROXY: 'true' }).trustProxy).toBe(true)
    expect(loadConfig({ ...base, TRUST_PROXY: '2' }).trustProxy).toBe(2)
    expect(loadConfig({ ...base, TRUST_PROXY: '10.0.0.0/8, 192.0.2.1' }).trustProxy).toBe(
      '10.0.0.0/8,192.0.2.1',
    )
    expect(() => loadConfig({ ...base, TRUST_PROXY: 'the load balancer' })).toThrow(/TRUST_PROXY/)
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
      'proofKeysKey',
      'quoteKey',
    ])
    expect(first.secrets.quoteKeys.map((key) => Buffer.from(key))).toEqual([
      Buffer.from(JSON.parse(readFileSync(file, 'utf8')).quoteKey, 'base64url'),
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

  it.each([
    ['ADDRESS_SEED_KEY', 'addressSeedKey'],
    ['PROOF_KEYS_KEY', 'proofKeysKey'],
  ] as const)('takes %s from the environment, exactly 32 bytes', (name, secret) => {
    const key = Buffer.alloc(32, 9).toString('base64url')
    const config = loadConfig({ DATA_DIR: tempDir(), [name]: key })
    expect(Buffer.from(config.secrets[secret])).toEqual(Buffer.alloc(32, 9))
    const long = Buffer.alloc(48, 9).toString('base64url')
    expect(() => loadConfig({ DATA_DIR: tempDir(), [name]: long })).toThrowError(
      new RegExp(`${name} must be exactly 32 bytes`),
    )
  })

  it('takes QUOTE_KEYS from the environment: comma-separated, in order, each of 32 bytes or more', () => {
    const current = Buffer.alloc(32, 7).toString('base64url')
    const previous = Buffer.alloc(48, 8).toString('base64url')
    const config = loadConfig({ DATA_DIR: tempDir(), QUOTE_KEYS: `${current}, ${previous}` })
    expect(config.secrets.quoteKeys.map((key) => Buffer.from(key))).toEqual([
      Buffer.alloc(32, 7),
      Buffer.alloc(48, 8),
    ])
    for (const bad of [`${current},`, `${current},short`]) {
      expect(() => loadConfig({ DATA_DIR: tempDir(), QUOTE_KEYS: bad })).toThrowError(
        /QUOTE_KEYS must be comma-separated keys of at least 32 bytes each/,
      )
    }
  })

  it('jobs poll every 250 ms, sandbox blocks come every second, the demo is seeded in the sandbox', () => {
    const config = loadConfig({ DATA_DIR: tempDir() })
    expect(config.jobs).toEqual({ pollMs: 250, leaseMs: 10_000 })
    expect(config.sandboxChain).toEqual({ blockMs: 1_000, maxConfirmations: 3 })
    expect(config.demo).toEqual({ seed: true, password: DEFAULT_DEMO_PASSWORD })
    const production = loadConfig({ DATA_DIR: tempDir(), DATABASE_URL: 'postgres://db/app' })
    expect(production.demo.seed).toBe(false)
  })

  it('KYC: the sandbox by default; Sumsub needs its token pair and webhook secret', () => {
    const sandbox = loadConfig({ DATA_DIR: tempDir() }).kyc
    expect(sandbox).toEqual({
      provider: 'sandbox',
      sandboxDecisionMs: 3_000,
      sandboxDecides: true,
      levelName: 'basic-kyc-level',
      tokenTtlSeconds: 1_800,
      sumsub: undefined,
    })
    expect(() =>
      loadConfig({ DATA_DIR: tempDir(), KYC_PROVIDER: 'sumsub', SUMSUB_APP_TOKEN: 't' }),
    ).toThrowError(/KYC_PROVIDER=sumsub needs SUMSUB_SECRET_KEY, SUMSUB_WEBHOOK_SECRET/)
    expect(() => loadConfig({ DATA_DIR: tempDir(), KYC_PROVIDER: 'onfido' })).toThrowError(
      /KYC_PROVIDER must be one of sandbox, sumsub/,
    )
    const sumsub = loadConfig({
      DATA_DIR: tempDir(),
      KYC_PROVIDER: 'sumsub',
      SUMSUB_APP_TOKEN: 'app-token',
      SUMSUB_SECRET_KEY: 'secret',
      SUMSUB_WEBHOOK_SECRET: 'webhook',
      SUMSUB_BASE_URL: 'https://api.sumsub.example/',
      SUMSUB_LEVEL_NAME: 'id-and-liveness',
    }).kyc
    expect(sumsub).toMatchObject({
      provider: 'sumsub',
      levelName: 'id-and-liveness',
      sumsub: {
        baseUrl: 'https://api.sumsub.example',
        appToken: 'app-token',
        secretKey: 'secret',
        webhookSecret: 'webhook',
        webhookDigestAlg: 'HMAC_SHA256_HEX',
        websdkOrigin: 'https://in.sumsub.com',
      },
    })
  })

  it('KYC in production: the sandbox provider decides nothing unless named and acknowledged', () => {
    const production = { DATA_DIR: tempDir(), DATABASE_URL: 'postgres://db/app' }
    // No KYC_PROVIDER: the sandbox provider stands in, but its rules approve no one.
    expect(loadConfig(production).kyc).toMatchObject({ provider: 'sandbox', sandboxDecides: false })
    expect(() => loadConfig({ ...production, KYC_PROVIDER: 'sandbox' })).toThrowError(
      /KYC_PROVIDER=sandbox with SANDBOX=false .* KYC_SANDBOX_IN_PRODUCTION=true/,
    )
    const acknowledged = loadConfig({
      ...production,
      KYC_PROVIDER: 'sandbox',
      KYC_SANDBOX_IN_PRODUCTION: 'true',
    })
    expect(acknowledged.kyc.sandboxDecides).toBe(true)
  })

  it('Sumsub: https outside the sandbox, a pinned digest algorithm, the WebSDK origin', () => {
    const sumsubEnv = {
      DATA_DIR: tempDir(),
      DATABASE_URL: 'postgres://db/app',
      KYC_PROVIDER: 'sumsub',
      SUMSUB_APP_TOKEN: 'app-token',
      SUMSUB_SECRET_KEY: 'secret',
      SUMSUB_WEBHOOK_SECRET: 'webhook',
    }
    expect(() =>
      loadConfig({ ...sumsubEnv, SUMSUB_BASE_URL: 'http://api.sumsub.example' }),
    ).toThrowError(/SUMSUB_BASE_URL must be https:\/\/ unless SANDBOX=true/)
    expect(
      loadConfig({ ...sumsubEnv, SANDBOX: 'true', SUMSUB_BASE_URL: 'http://127.0.0.1:9' }).kyc
        .sumsub?.baseUrl,
    ).toBe('http://127.0.0.1:9')
    expect(() => loadConfig({ ...sumsubEnv, SUMSUB_WEBHOOK_DIGEST_ALG: 'MD5' })).toThrowError(
      /SUMSUB_WEBHOOK_DIGEST_ALG must be one of/,
    )
    expect(() =>
      loadConfig({ ...sumsubEnv, SUMSUB_WEBSDK_ORIGIN: 'http://eu.sumsub.example' }),
    ).toThrowError(/SUMSUB_WEBSDK_ORIGIN must be an https origin/)
    expect(
      loadConfig({
        ...sumsubEnv,
        SUMSUB_WEBHOOK_DIGEST_ALG: 'HMAC_SHA512_HEX',
        SUMSUB_WEBSDK_ORIGIN: 'https://eu.sumsub.example',
      }).kyc.sumsub,
    ).toMatchObject({
      webhookDigestAlg: 'HMAC_SHA512_HEX',
      websdkOrigin: 'https://eu.sumsub.example',
    })
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
