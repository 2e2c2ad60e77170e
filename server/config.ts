import { createPrivateKey, generateKeyPairSync, randomBytes } from 'node:crypto'
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'

export interface Config {
  port: number
  host: string
  dataDir: string
  /** Unset: embedded PGlite in `dataDir`. `memory://` keeps PGlite in memory (tests, bench). */
  databaseUrl: string | undefined
  sandbox: boolean
  logLevel: string
  accessTokenTtl: number
  refreshTokenTtl: number
  refreshReuseGrace: number
  /** Per minute and IP, and per 15 minutes and e-mail, for sign-in and sign-up. */
  authRateLimitPerIp: number
  authRateLimitPerEmail: number
  otp: {
    /** Seconds a one-time code stays valid. */
    ttl: number
    /** Seconds between two codes to one identifier. */
    resendInterval: number
    /** Wrong codes before the identifier is blocked… */
    maxAttempts: number
    /** …for this many seconds. */
    blockDuration: number
  }
  /** smtp(s)://user:pass@host:port for real e-mail; unset: the sandbox outbox only. */
  smtpUrl: string | undefined
  mailFrom: string
  telegram: {
    /** The bot's token: the key its init data is signed with. Unset: Telegram sign-in is off. */
    botToken: string | undefined
    /** Seconds after which launch data is too old to sign in with. */
    authMaxAge: number
  }
  /** Where the built app lives; the server serves it when the folder exists. */
  distDir: string
  jobs: {
    /** Milliseconds between two polls of the job queue; 0: no poll loop (tests drive runDue). */
    pollMs: number
    /** Milliseconds a claimed job is leased to its runner before another may take it again. */
    leaseMs: number
  }
  sandboxBank: {
    /** SANDBOX_BANK_MS: milliseconds after which a sandbox bank payout settles (or comes back). */
    payoutMs: number
  }
  sandboxChain: {
    /** Milliseconds between two sandbox "blocks": one more confirmation per block. */
    blockMs: number
    /** Confirmations a sandbox deposit needs at most (the chain's own count when lower). */
    maxConfirmations: number
  }
  rates: {
    /** RATES_PROVIDER: where exchange rates come from; only the sandbox exists so far. */
    provider: RatesProviderName
    /** Milliseconds the sandbox rates provider takes to answer, as a real vendor would. */
    sandboxLatencyMs: number
  }
  /** QUOTE_TTL_SECONDS: how long a firm quote (GET /orders/calc) can be placed as an order. */
  quoteTtlSeconds: number
  demo: {
    /** Seed the demo user, wallets and deposits at start (sandbox only). */
    seed: boolean
    /** The demo user's password: DEMO_PASSWORD, else the documented sandbox one. */
    password: string
  }
  secrets: Secrets
}

export const RATES_PROVIDERS = ['sandbox'] as const
export type RatesProviderName = (typeof RATES_PROVIDERS)[number]

/** The demo user's password when DEMO_PASSWORD is not set (README, docs/decisions.md). */
export const DEFAULT_DEMO_PASSWORD = 'Sandbox-Wallet-2025'

export interface Secrets {
  /** HS256 key for access tokens. */
  jwtKey: Uint8Array
  /** HMAC key from which refresh tokens are derived (see domain/auth/tokens.ts). */
  refreshKey: Uint8Array
  /** AES-256-GCM key the tenants' address seeds are stored under (domain/addresses/seed-store.ts). */
  addressSeedKey: Uint8Array
  /** CARD_DATA_KEY: AES-256-GCM key card numbers are stored under (domain/cards/card-crypto.ts). */
  cardDataKey: Uint8Array
  /** CARD_CVK: the card verification key CVVs are derived from (HMAC-SHA256), never stored. */
  cardCvk: Uint8Array
  /**
   * CARD_SECRET_PRIVATE_KEY: PEM of the RSA key (2048 bits or more) the card-secret
   * exchange decrypts the client's key with; unset: DATA_DIR/card-secret-key.pem.
   */
  cardSecretPrivateKey: string
}

type Env = Record<string, string | undefined>

class ConfigError extends Error {
  constructor(problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`)
    this.name = 'ConfigError'
  }
}

/**
 * Reads the environment once at boot. Every problem is collected so one start
 * reports all of them, instead of failing on the first.
 */
export function loadConfig(env: Env = process.env): Config {
  const problems: string[] = []

  const int = (name: string, fallback: number, min: number, max: number): number => {
    const raw = env[name]
    if (raw === undefined || raw === '') return fallback
    const value = Number(raw)
    if (!Number.isInteger(value) || value < min || value > max) {
      problems.push(`${name} must be a whole number from ${min} to ${max}, got "${raw}"`)
      return fallback
    }
    return value
  }

  const bool = (name: string, fallback: boolean): boolean => {
    const raw = env[name]
    if (raw === undefined || raw === '') return fallback
    if (/^(1|true|yes|on)$/i.test(raw)) return true
    if (/^(0|false|no|off)$/i.test(raw)) return false
    problems.push(`${name} must be true or false, got "${raw}"`)
    return fallback
  }

  const databaseUrl = env.DATABASE_URL || undefined
  if (databaseUrl && !/^(postgres(ql)?:\/\/|memory:\/\/$)/.test(databaseUrl)) {
    problems.push('DATABASE_URL must start with postgres:// or postgresql:// (or be memory://)')
  }

  const logLevel = env.LOG_LEVEL || 'info'
  if (!['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'].includes(logLevel)) {
    problems.push(`LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent`)
  }

  const dataDir = resolve(env.DATA_DIR || '.data')
  const config = {
    port: int('PORT', 8080, 0, 65535),
    host: env.HOST || '0.0.0.0',
    dataDir,
    databaseUrl,
    // The sandbox is the default for the embedded database: a fresh clone is a demo.
    sandbox: bool('SANDBOX', !databaseUrl || databaseUrl === 'memory://'),
    logLevel,
    accessTokenTtl: int('ACCESS_TOKEN_TTL', 900, 1, 86_400),
    refreshTokenTtl: int('REFRESH_TOKEN_TTL', 30 * 86_400, 60, 365 * 86_400),
    refreshReuseGrace: int('REFRESH_REUSE_GRACE', 30, 0, 600),
    authRateLimitPerIp: int('AUTH_RATE_LIMIT_PER_IP', 30, 1, 100_000),
    authRateLimitPerEmail: int('AUTH_RATE_LIMIT_PER_EMAIL', 10, 1, 100_000),
    otp: {
      ttl: int('OTP_TTL', 300, 1, 3600),
      resendInterval: int('OTP_RESEND_INTERVAL', 60, 0, 3600),
      maxAttempts: int('OTP_MAX_ATTEMPTS', 5, 1, 100),
      blockDuration: int('OTP_BLOCK_DURATION', 15 * 60, 1, 86_400),
    },
    smtpUrl: env.SMTP_URL || undefined,
    mailFrom: env.MAIL_FROM || 'Finplatform <no-reply@finplatform.local>',
    telegram: {
      botToken: env.TELEGRAM_BOT_TOKEN || undefined,
      authMaxAge: int('TELEGRAM_AUTH_MAX_AGE', 3600, 1, 86_400 * 7),
    },
    distDir: resolve(env.DIST_DIR || 'dist'),
    jobs: {
      pollMs: int('JOBS_POLL_MS', 250, 0, 60_000),
      leaseMs: int('JOBS_LEASE_MS', 60_000, 1_000, 3_600_000),
    },
    quoteTtlSeconds: int('QUOTE_TTL_SECONDS', 30, 5, 600),
    sandboxBank: {
      payoutMs: int('SANDBOX_BANK_MS', 2_000, 0, 600_000),
    },
    sandboxChain: {
      blockMs: int('SANDBOX_BLOCK_MS', 1_000, 0, 600_000),
      maxConfirmations: int('SANDBOX_MAX_CONFIRMATIONS', 3, 1, 1_000),
    },
  }
  const ratesProvider = env.RATES_PROVIDER || 'sandbox'
  if (!(RATES_PROVIDERS as readonly string[]).includes(ratesProvider)) {
    problems.push(`RATES_PROVIDER must be one of ${RATES_PROVIDERS.join(', ')}`)
  }
  const rates = {
    provider: ratesProvider as RatesProviderName,
    sandboxLatencyMs: int('RATES_SANDBOX_LATENCY_MS', 25, 0, 10_000),
  }
  if (config.smtpUrl && !/^smtps?:\/\//.test(config.smtpUrl)) {
    problems.push('SMTP_URL must start with smtp:// or smtps://')
  }

  const jwtKey = secret(env.JWT_SECRET, 'JWT_SECRET', problems)
  const refreshKey = secret(env.REFRESH_TOKEN_SECRET, 'REFRESH_TOKEN_SECRET', problems)
  const addressSeedKey = secret(env.ADDRESS_SEED_KEY, 'ADDRESS_SEED_KEY', problems, 32)
  const cardDataKey = secret(env.CARD_DATA_KEY, 'CARD_DATA_KEY', problems, 32)
  const cardCvk = secret(env.CARD_CVK, 'CARD_CVK', problems)
  const cardSecretPrivateKey = rsaPrivateKey(env.CARD_SECRET_PRIVATE_KEY, problems)
  const demo = {
    seed: bool('DEMO_SEED', config.sandbox),
    password: env.DEMO_PASSWORD || DEFAULT_DEMO_PASSWORD,
  }
  if (problems.length > 0) throw new ConfigError(problems)

  const stored =
    jwtKey && refreshKey && addressSeedKey && cardDataKey && cardCvk
      ? undefined
      : loadOrCreateSecrets(dataDir)
  return {
    ...config,
    rates,
    demo,
    secrets: {
      jwtKey: jwtKey ?? stored!.jwtKey,
      refreshKey: refreshKey ?? stored!.refreshKey,
      addressSeedKey: addressSeedKey ?? stored!.addressSeedKey,
      cardDataKey: cardDataKey ?? stored!.cardDataKey,
      cardCvk: cardCvk ?? stored!.cardCvk,
      cardSecretPrivateKey: cardSecretPrivateKey ?? loadOrCreateCardSecretKey(dataDir),
    },
  }
}

/** A base64url key of at least 32 bytes; `exact` for a cipher key that must be that size. */
function secret(raw: string | undefined, name: string, problems: string[], exact?: number) {
  if (!raw) return undefined
  const bytes = Buffer.from(raw, 'base64url')
  if (exact !== undefined && bytes.length !== exact) {
    problems.push(`${name} must be exactly ${exact} bytes, base64url-encoded`)
    return undefined
  }
  if (bytes.length < 32) {
    problems.push(`${name} must be at least 32 bytes, base64url-encoded`)
    return undefined
  }
  return new Uint8Array(bytes)
}

const SECRET_NAMES = ['jwtKey', 'refreshKey', 'addressSeedKey', 'cardDataKey', 'cardCvk'] as const

/**
 * Secrets not given in the environment are generated on first start and kept
 * in DATA_DIR (mode 0600), so tokens survive a restart. A file from an older
 * version gains the keys added since (never a changed one: the address seed
 * key, once used, decrypts every tenant's seed).
 */
function loadOrCreateSecrets(dataDir: string): Omit<Secrets, 'cardSecretPrivateKey'> {
  const file = join(dataDir, 'secrets.json')
  mkdirSync(dataDir, { recursive: true })
  let stored: Record<string, string> | undefined
  try {
    stored = JSON.parse(readFileSync(file, 'utf8'))
  } catch {
    stored = undefined
  }
  const missing = SECRET_NAMES.filter((name) => !stored?.[name])
  if (missing.length > 0) {
    const fresh = Object.fromEntries(
      missing.map((name) => [name, randomBytes(32).toString('base64url')]),
    )
    const existed = stored !== undefined
    stored = { ...stored, ...fresh }
    const text = `${JSON.stringify(stored, null, 2)}\n`
    if (existed) writeFileSync(file, text, { mode: 0o600 })
    else writeFileSync(file, text, { mode: 0o600, flag: 'wx' })
  }
  const decode = (value: string | undefined) => new Uint8Array(Buffer.from(value!, 'base64url'))
  return {
    jwtKey: decode(stored!.jwtKey),
    refreshKey: decode(stored!.refreshKey),
    addressSeedKey: decode(stored!.addressSeedKey),
    cardDataKey: decode(stored!.cardDataKey),
    cardCvk: decode(stored!.cardCvk),
  }
}

/** A PEM RSA private key of 2048 bits or more (`\\n` escapes allowed, for one-line env files). */
function rsaPrivateKey(raw: string | undefined, problems: string[]): string | undefined {
  if (!raw) return undefined
  const pem = raw.replace(/\\n/g, '\n')
  try {
    const key = createPrivateKey(pem)
    const bits = key.asymmetricKeyDetails?.modulusLength ?? 0
    if (key.asymmetricKeyType === 'rsa' && bits >= 2048) {
      return key.export({ type: 'pkcs8', format: 'pem' }).toString()
    }
  } catch {
    // reported below
  }
  problems.push('CARD_SECRET_PRIVATE_KEY must be a PEM RSA private key of 2048 bits or more')
  return undefined
}

/**
 * The card-secret exchange's RSA key when CARD_SECRET_PRIVATE_KEY is not set:
 * generated (2048 bits) on first start into DATA_DIR/card-secret-key.pem
 * (mode 0600) and kept, so the app's published public key stays valid.
 */
function loadOrCreateCardSecretKey(dataDir: string): string {
  const file = join(dataDir, 'card-secret-key.pem')
  mkdirSync(dataDir, { recursive: true })
  try {
    return readFileSync(file, 'utf8')
  } catch {
    const { privateKey } = generateKeyPairSync('rsa', {
      modulusLength: 2048,
      privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
      publicKeyEncoding: { type: 'spki', format: 'pem' },
    })
    try {
      writeFileSync(file, privateKey, { mode: 0o600, flag: 'wx' })
      return privateKey
    } catch {
      // Another process wrote it first: theirs is the key.
      return readFileSync(file, 'utf8')
    }
  }
}
