import { createPrivateKey, generateKeyPairSync, randomBytes } from 'node:crypto'
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'

// The server's keys: read from the environment with the rest of the config (config.ts), the
// ones it does not give made on first start and kept in DATA_DIR.

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

/** A base64url key of at least 32 bytes; `exact` for a cipher key that must be that size. */
export function secret(raw: string | undefined, name: string, problems: string[], exact?: number) {
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
export function secretList(raw: string | undefined, name: string, problems: string[]) {
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
export function loadOrCreateSecrets(
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
export function rsaPrivateKey(raw: string | undefined, problems: string[]): string | undefined {
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
export function loadOrCreateCardSecretKey(dataDir: string): string {
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
