import { createPrivateKey, generateKeyPairSync, randomBytes } from 'node:crypto'
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { hostname } from 'node:os'
import { join, resolve } from 'node:path'
import { KYC_PROVIDERS, type KycProviderName } from '../contract/kyc.ts'
import { relyingPartyProblems } from './domain/auth/webauthn-rules.ts'
import { type EventsConfig, eventsConfig } from './events-config.ts'

export interface Config {
  port: number
  host: string
  /**
   * TRUST_PROXY: whom to believe about the caller's address (X-Forwarded-For).
   * false (the default): nobody — the socket's peer is the caller, so an
   * allow-list or a per-IP limit cannot be talked round by a header. A number:
   * that many proxy hops; a list of addresses or CIDRs: those proxies only.
   */
  trustProxy: boolean | number | string
  dataDir: string
  /** Unset: embedded PGlite in `dataDir`. `memory://` keeps PGlite in memory (tests, bench). */
  databaseUrl: string | undefined
  /**
   * DATABASE_REPLICA_URL: a streaming replica of DATABASE_URL (PostgreSQL only). Reads that
   * tolerate a little lag go there (infra/db.ts, `app.dbRead`); unset: they go to the primary.
   */
  databaseReplicaUrl: string | undefined
  /**
   * DATABASE_DIRECT_URL: the primary itself, when DATABASE_URL goes through PgBouncer. Each
   * process listens there for the sessions that end (a LISTEN needs a session of its own,
   * which transaction pooling does not keep); unset: DATABASE_URL is used.
   */
  databaseDirectUrl: string | undefined
  /**
   * SESSION_CACHE_SIZE: live sessions each process keeps in memory (the least recently used
   * dropped past it); 0: every request reads its session from the database.
   */
  sessionCacheSize: number
  /** NODE_NAME: this process among several behind one load balancer; a label on every metric. */
  nodeName: string
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
    /** Wrong codes before the identifier is blocked (for each purpose)… */
    maxAttempts: number
    /** …for this many seconds. */
    blockDuration: number
    /** Wrong codes per 15 minutes and client address at the public calls, across identifiers. */
    maxAttemptsPerIp: number
  }
  /** smtp(s)://user:pass@host:port for real e-mail; unset: the sandbox outbox only. */
  smtpUrl: string | undefined
  mailFrom: string
  telegram: {
    /** The bot's token: the key its init data is signed with. Unset: Telegram sign-in is off. */
    botToken: string | undefined
    /** Seconds after which launch data is too old to sign in with. */
    authMaxAge: number
    /** TELEGRAM_BOT_USERNAME: the bot's @name without "@", for the Mini App's direct links. */
    botUsername: string | undefined
    /** TELEGRAM_MINI_APP_NAME: the Mini App's short name (t.me/<bot>/<app>). */
    miniAppName: string | undefined
  }
  /**
   * The WebAuthn relying party for tenants that configure none of their own
   * (tenants.webauthn_rp_id / webauthn_origins): WEBAUTHN_RP_ID (default
   * localhost) and WEBAUTHN_ORIGINS, a comma-separated list (default
   * http://localhost:PORT). Every origin must be the RP id or under it.
   */
  webauthn: { rpId: string; origins: string[] }
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
    /** SANDBOX_BANK_LATENCY_MS: milliseconds the sandbox bank takes to answer each call. */
    latencyMs: number
  }
  sandboxShipping: {
    /** SANDBOX_SHIPPING_MS: each step of a physical card's sandbox delivery (ordered → shipped → delivered). */
    stepMs: number
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
  apiKeys: {
    /** API_KEY_ROTATION_OVERLAP_SECONDS: how long a rotated-out secret keeps working by default. */
    rotationOverlapSeconds: number
    /** API_KEY_RATE_LIMIT_PER_MINUTE: calls one developer API key may make per minute. */
    rateLimitPerMinute: number
  }
  /** Identity verification: the provider and its settings (see kycConfig). */
  kyc: KycConfig
  demo: {
    /** Seed the demo user, wallets and deposits at start (sandbox only). */
    seed: boolean
    /** The demo user's password: DEMO_PASSWORD, else the documented sandbox one. */
    password: string
  }
  secrets: Secrets
  /** Issue 20: how events leave the server (see eventsConfig). */
  events: EventsConfig
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
  /** PROOF_KEYS_KEY: AES-256-GCM key the tenants' proof signing keys are stored under (domain/proofs). */
  proofKeysKey: Uint8Array
  /**
   * QUOTE_KEYS: the HMAC-SHA256 keys firm quotes are signed with (orders/quote-token.ts):
   * the first signs, every one verifies, so a key rotated out keeps the quotes it signed
   * placeable while it stays listed; unset: one key kept in DATA_DIR/secrets.json.
   */
  quoteKeys: Uint8Array[]
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
/** TRUST_PROXY: unset or false → false; true; a hop count; or comma-separated IPs/CIDRs. */
function trustProxy(raw: string | undefined, problems: string[]): boolean | number | string {
  if (raw === undefined || raw === '' || /^(0|false|no|off)$/i.test(raw)) return false
  if (/^(true|yes|on)$/i.test(raw)) return true
  if (/^[1-9][0-9]?$/.test(raw)) return Number(raw)
  const entries = raw.split(',').map((entry) => entry.trim())
  const address = /^(?:[0-9]{1,3}(?:\.[0-9]{1,3}){3}|[0-9a-f:]*:[0-9a-f:.]*)(?:\/[0-9]{1,3})?$/i
  if (entries.every((entry) => address.test(entry))) return entries.join(',')
  problems.push(
    `TRUST_PROXY must be true, false, a hop count or comma-separated proxy addresses/CIDRs, got "${raw}"`,
  )
  return false
}

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

  /** A Telegram name (a bot's username, a Mini App's short name), "@" tolerated; unset: undefined. */
  const telegramName = (name: string, shape: RegExp): string | undefined => {
    const raw = env[name]?.trim().replace(/^@/, '')
    if (!raw) return undefined
    if (!shape.test(raw)) {
      problems.push(`${name} must be a Telegram name (letters, digits, underscores), got "${raw}"`)
      return undefined
    }
    return raw
  }

  const databaseUrl = env.DATABASE_URL || undefined
  if (databaseUrl && !/^(postgres(ql)?:\/\/|memory:\/\/$)/.test(databaseUrl)) {
    problems.push('DATABASE_URL must start with postgres:// or postgresql:// (or be memory://)')
  }

  const databaseReplicaUrl = env.DATABASE_REPLICA_URL || undefined
  if (databaseReplicaUrl && !/^postgres(ql)?:\/\//.test(databaseReplicaUrl)) {
    problems.push('DATABASE_REPLICA_URL must start with postgres:// or postgresql://')
  } else if (databaseReplicaUrl && !databaseUrl?.startsWith('postgres')) {
    problems.push('DATABASE_REPLICA_URL needs DATABASE_URL to be a PostgreSQL (a replica of it)')
  }
  const databaseDirectUrl = env.DATABASE_DIRECT_URL || undefined
  if (databaseDirectUrl && !/^postgres(ql)?:\/\//.test(databaseDirectUrl)) {
    problems.push('DATABASE_DIRECT_URL must start with postgres:// or postgresql://')
  } else if (databaseDirectUrl && !databaseUrl?.startsWith('postgres')) {
    problems.push('DATABASE_DIRECT_URL needs DATABASE_URL to be a PostgreSQL (the same one)')
  }
  const nodeName = env.NODE_NAME || hostname()
  if (!/^[\w.:-]{1,64}$/.test(nodeName)) {
    problems.push('NODE_NAME must be 1 to 64 letters, digits, ".", ":", "-" or "_"')
  }

  const logLevel = env.LOG_LEVEL || 'info'
  if (!['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'].includes(logLevel)) {
    problems.push(`LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent`)
  }

  const dataDir = resolve(env.DATA_DIR || '.data')
  const config = {
    port: int('PORT', 8080, 0, 65535),
    // Loopback unless asked: the sandbox's routes mint deposits and approve
    // identities for any caller, so the network must opt in (HOST=0.0.0.0).
    host: env.HOST || '127.0.0.1',
    trustProxy: trustProxy(env.TRUST_PROXY, problems),
    dataDir,
    databaseUrl,
    databaseReplicaUrl,
    databaseDirectUrl,
    sessionCacheSize: int('SESSION_CACHE_SIZE', 50_000, 0, 10_000_000),
    nodeName,
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
      maxAttemptsPerIp: int('OTP_MAX_ATTEMPTS_PER_IP', 20, 1, 100_000),
    },
    smtpUrl: env.SMTP_URL || undefined,
    mailFrom: env.MAIL_FROM || 'Finplatform <no-reply@finplatform.local>',
    telegram: {
      botToken: env.TELEGRAM_BOT_TOKEN || undefined,
      authMaxAge: int('TELEGRAM_AUTH_MAX_AGE', 3600, 1, 86_400 * 7),
      botUsername: telegramName('TELEGRAM_BOT_USERNAME', /^[A-Za-z][A-Za-z0-9_]{4,31}$/),
      miniAppName: telegramName('TELEGRAM_MINI_APP_NAME', /^[A-Za-z0-9_]{3,30}$/),
    },
    webauthn: webauthnConfig(env, int('PORT', 8080, 0, 65535), problems),
    distDir: resolve(env.DIST_DIR || 'dist'),
    jobs: {
      pollMs: int('JOBS_POLL_MS', 250, 0, 60_000),
      leaseMs: int('JOBS_LEASE_MS', 10_000, 1_000, 3_600_000),
    },
    quoteTtlSeconds: int('QUOTE_TTL_SECONDS', 30, 5, 600),
    apiKeys: {
      rotationOverlapSeconds: int('API_KEY_ROTATION_OVERLAP_SECONDS', 0, 0, 604_800),
      rateLimitPerMinute: int('API_KEY_RATE_LIMIT_PER_MINUTE', 600, 1, 1_000_000),
    },
    sandboxBank: {
      payoutMs: int('SANDBOX_BANK_MS', 2_000, 0, 600_000),
      latencyMs: int('SANDBOX_BANK_LATENCY_MS', 0, 0, 60_000),
    },
    sandboxShipping: {
      stepMs: int('SANDBOX_SHIPPING_MS', 5_000, 0, 86_400_000),
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
  const kyc = kycConfig(env, problems, int, config.sandbox)
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
  const proofKeysKey = secret(env.PROOF_KEYS_KEY, 'PROOF_KEYS_KEY', problems, 32)
  const quoteKeys = secretList(env.QUOTE_KEYS, 'QUOTE_KEYS', problems)
  const cardSecretPrivateKey = rsaPrivateKey(env.CARD_SECRET_PRIVATE_KEY, problems)
  const demo = {
    seed: bool('DEMO_SEED', config.sandbox),
    password: env.DEMO_PASSWORD || DEFAULT_DEMO_PASSWORD,
  }
  const events = eventsConfig(env, problems, config.sandbox)
  if (problems.length > 0) throw new ConfigError(problems)

  const stored =
    jwtKey && refreshKey && addressSeedKey && cardDataKey && cardCvk && proofKeysKey && quoteKeys
      ? undefined
      : loadOrCreateSecrets(dataDir)
  return {
    ...config,
    rates,
    kyc,
    demo,
    events,
    secrets: {
      jwtKey: jwtKey ?? stored!.jwtKey,
      refreshKey: refreshKey ?? stored!.refreshKey,
      addressSeedKey: addressSeedKey ?? stored!.addressSeedKey,
      cardDataKey: cardDataKey ?? stored!.cardDataKey,
      cardCvk: cardCvk ?? stored!.cardCvk,
      proofKeysKey: proofKeysKey ?? stored!.proofKeysKey,
      quoteKeys: quoteKeys ?? [stored!.quoteKey],
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

/** Comma-separated base64url keys of at least 32 bytes each, in their order. */
function secretList(raw: string | undefined, name: string, problems: string[]) {
  if (!raw) return undefined
  const keys = raw.split(',').map((part) => secret(part.trim(), name, []))
  if (keys.some((key) => key === undefined)) {
    problems.push(
      `${name} must be comma-separated keys of at least 32 bytes each, base64url-encoded`,
    )
    return undefined
  }
  return keys as Uint8Array[]
}

const SECRET_NAMES = [
  'jwtKey',
  'refreshKey',
  'addressSeedKey',
  'cardDataKey',
  'cardCvk',
  'proofKeysKey',
  'quoteKey',
] as const

/**
 * Secrets not given in the environment are generated on first start and kept
 * in DATA_DIR (mode 0600), so tokens survive a restart. A file from an older
 * version gains the keys added since (never a changed one: the address seed
 * key, once used, decrypts every tenant's seed).
 */
function loadOrCreateSecrets(
  dataDir: string,
): Omit<Secrets, 'cardSecretPrivateKey' | 'quoteKeys'> & { quoteKey: Uint8Array } {
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
    proofKeysKey: decode(stored!.proofKeysKey),
    quoteKey: decode(stored!.quoteKey),
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

export interface KycConfig {
  /** KYC_PROVIDER: sandbox (decides by rules or through /api/sandbox/kyc/decision) or sumsub. */
  provider: KycProviderName
  /** SANDBOX_KYC_MS: milliseconds after a sandbox submission before the rules decide it. */
  sandboxDecisionMs: number
  /**
   * Whether the sandbox provider takes submissions and its rules decide them:
   * always with SANDBOX=true; with SANDBOX=false only when KYC_PROVIDER=sandbox
   * is set explicitly together with KYC_SANDBOX_IN_PRODUCTION=true. Otherwise
   * a production deployment without a real provider verifies nobody.
   */
  sandboxDecides: boolean
  /** SUMSUB_LEVEL_NAME: the verification level asked for (the sandbox names its level the same). */
  levelName: string
  /** Seconds an SDK access token lives (SUMSUB_TOKEN_TTL). */
  tokenTtlSeconds: number
  /** Set when provider is sumsub; every field is then required. */
  sumsub:
    | {
        /** SUMSUB_BASE_URL, default https://api.sumsub.com */
        baseUrl: string
        /** SUMSUB_APP_TOKEN and SUMSUB_SECRET_KEY: the app token pair requests are signed with. */
        appToken: string
        secretKey: string
        /** SUMSUB_WEBHOOK_SECRET: the key webhook digests (X-Payload-Digest) are checked with. */
        webhookSecret: string
        /** SUMSUB_WEBHOOK_DIGEST_ALG: the one X-Payload-Digest-Alg accepted (HMAC_SHA256_HEX). */
        webhookDigestAlg: SumsubDigestAlg
        /** SUMSUB_WEBSDK_ORIGIN: the origin the WebSDK frames its flow from (CSP frame-src). */
        websdkOrigin: string
      }
    | undefined
}

/** The webhook digest algorithms Sumsub can be set to sign with. */
export const SUMSUB_DIGEST_ALGS = ['HMAC_SHA256_HEX', 'HMAC_SHA512_HEX', 'HMAC_SHA1_HEX'] as const
export type SumsubDigestAlg = (typeof SUMSUB_DIGEST_ALGS)[number]

function kycConfig(
  env: Env,
  problems: string[],
  int: (name: string, fallback: number, min: number, max: number) => number,
  sandbox: boolean,
): KycConfig {
  const provider = env.KYC_PROVIDER || 'sandbox'
  if (!(KYC_PROVIDERS as readonly string[]).includes(provider)) {
    problems.push(`KYC_PROVIDER must be one of ${KYC_PROVIDERS.join(', ')}`)
  }
  // The sandbox's rules approve anyone whose name lacks "reject": in
  // production that only runs when asked for by name and acknowledged.
  const sandboxInProduction = env.KYC_SANDBOX_IN_PRODUCTION === 'true'
  if (!sandbox && env.KYC_PROVIDER === 'sandbox' && !sandboxInProduction) {
    problems.push(
      'KYC_PROVIDER=sandbox with SANDBOX=false approves anyone by rules: set KYC_PROVIDER=sumsub, or KYC_SANDBOX_IN_PRODUCTION=true to accept that',
    )
  }
  const sandboxDecides =
    provider === 'sandbox' && (sandbox || (env.KYC_PROVIDER === 'sandbox' && sandboxInProduction))
  const baseUrl = env.SUMSUB_BASE_URL || 'https://api.sumsub.com'
  if (!/^https?:\/\/[^/]+/.test(baseUrl)) {
    problems.push('SUMSUB_BASE_URL must be an http(s) URL')
  } else if (!sandbox && !baseUrl.startsWith('https://')) {
    problems.push('SUMSUB_BASE_URL must be https:// unless SANDBOX=true (it carries the app token)')
  }
  const websdkOrigin = env.SUMSUB_WEBSDK_ORIGIN || 'https://in.sumsub.com'
  if (!/^https:\/\/[a-z0-9.-]+(:\d+)?$/i.test(websdkOrigin)) {
    problems.push('SUMSUB_WEBSDK_ORIGIN must be an https origin, e.g. https://in.sumsub.com')
  }
  const digestAlg = env.SUMSUB_WEBHOOK_DIGEST_ALG || 'HMAC_SHA256_HEX'
  if (!(SUMSUB_DIGEST_ALGS as readonly string[]).includes(digestAlg)) {
    problems.push(`SUMSUB_WEBHOOK_DIGEST_ALG must be one of ${SUMSUB_DIGEST_ALGS.join(', ')}`)
  }
  let sumsub: KycConfig['sumsub']
  if (provider === 'sumsub') {
    const missing = ['SUMSUB_APP_TOKEN', 'SUMSUB_SECRET_KEY', 'SUMSUB_WEBHOOK_SECRET'].filter(
      (name) => !env[name],
    )
    if (missing.length > 0) problems.push(`KYC_PROVIDER=sumsub needs ${missing.join(', ')}`)
    sumsub = {
      baseUrl: baseUrl.replace(/\/+$/, ''),
      appToken: env.SUMSUB_APP_TOKEN ?? '',
      secretKey: env.SUMSUB_SECRET_KEY ?? '',
      webhookSecret: env.SUMSUB_WEBHOOK_SECRET ?? '',
      webhookDigestAlg: digestAlg as SumsubDigestAlg,
      websdkOrigin,
    }
  }
  const levelName = env.SUMSUB_LEVEL_NAME || 'basic-kyc-level'
  return {
    provider: provider as KycConfig['provider'],
    sandboxDecisionMs: int('SANDBOX_KYC_MS', 3_000, 0, 3_600_000),
    sandboxDecides,
    levelName,
    tokenTtlSeconds: int('SUMSUB_TOKEN_TTL', 1_800, 60, 86_400),
    sumsub,
  }
}

/** WEBAUTHN_RP_ID and WEBAUTHN_ORIGINS, checked against each other (relyingPartyProblems). */
function webauthnConfig(env: Env, port: number, problems: string[]) {
  const rpId = env.WEBAUTHN_RP_ID || 'localhost'
  const origins = (env.WEBAUTHN_ORIGINS || `http://localhost:${port}`)
    .split(',')
    .map((origin) => origin.trim())
    .filter(Boolean)
  for (const problem of relyingPartyProblems(rpId, origins)) {
    problems.push(`WEBAUTHN_ORIGINS / WEBAUTHN_RP_ID: ${problem}`)
  }
  return { rpId, origins }
}
