import { createHmac, hkdfSync, randomInt, timingSafeEqual } from 'node:crypto'

/** Six random digits, leading zeros kept. */
export const generateCode = () => String(randomInt(0, 1_000_000)).padStart(6, '0')

/**
 * Codes are kept as HMAC-SHA256(key, code id ":" code). The key is derived
 * (HKDF, its own label) from the refresh-token secret, so it lives where the
 * other secrets live — DATA_DIR/secrets.json or REFRESH_TOKEN_SECRET — and
 * never in the database. Why a keyed hash and not argon2: see migration 0003.
 */
export class CodeHasher {
  readonly #key: Buffer

  constructor(secret: Uint8Array) {
    this.#key = Buffer.from(
      hkdfSync('sha256', secret, new Uint8Array(0), 'finplatform otp code', 32),
    )
  }

  hash(codeId: string, code: string): string {
    return createHmac('sha256', this.#key).update(`${codeId}:${code}`).digest('hex')
  }

  /** Constant-time: how many digits matched must not show in the answer time. */
  matches(codeId: string, code: string, storedHash: string): boolean {
    const presented = Buffer.from(this.hash(codeId, code), 'hex')
    const stored = Buffer.from(storedHash, 'hex')
    return presented.length === stored.length && timingSafeEqual(presented, stored)
  }
}
