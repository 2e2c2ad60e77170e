import { hostname } from 'node:os'
import { resolve } from 'node:path'
import { relyingPartyProblems } from './domain/tenants/relying-party-rules.ts'
import { type EventsConfig, eventsConfig } from './events-config.ts'
import { type KycConfig, kycConfig } from './kyc-config.ts'
import {
  loadOrCreateCardSecretKey,
  loadOrCreateSecrets,
  rsaPrivateKey,
  type Secrets,
  secret,
  secretList,
} from './secrets-config.ts'

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

type Env = Record<string, string | undefined>

class ConfigError extends Error {
  constructor(problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`)
    this.name = 'ConfigError'
  }
}

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
