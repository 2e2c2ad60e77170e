import { createHash, randomBytes, timingSafeEqual } from 'node:crypto'

/**
 * A key reads `fpk_<public id>_<secret>`: 8 random bytes as 16 hex digits name
 * the row, 32 random bytes (base64url, 43 characters) are the secret. The
 * public id carries no underscore, so the first `_` after it ends it even
 * though base64url secrets may contain `_`.
 */
const KEY_PATTERN = /^fpk_([0-9a-f]{16})_([A-Za-z0-9_-]{43})$/

export interface NewKeySecret {
  publicId: string
  /** The whole key, to show once. */
  key: string
  /** What the database keeps. */
  hash: string
}

/**
 * SHA-256, not argon2: the secret is 256 random bits, so no dictionary or
 * brute force applies and a slow hash would only slow every API call
 * (docs/decisions.md, "Issue 8 — API keys").
 */
export const hashKey = (key: string) => createHash('sha256').update(key).digest('hex')

export function newKeySecret(): NewKeySecret {
  const publicId = randomBytes(8).toString('hex')
  const key = `fpk_${publicId}_${randomBytes(32).toString('base64url')}`
  return { publicId, key, hash: hashKey(key) }
}

/** The public id of a well-formed key; undefined for anything else. */
export function publicIdOf(key: string): string | undefined {
  return KEY_PATTERN.exec(key)?.[1]
}

/** `fpk_<public id>`: how lists tell keys apart without showing the secret. */
export const prefixOf = (publicId: string) => `fpk_${publicId}`

/** Compares two hex digests in constant time. */
export function sameHash(a: string, b: string): boolean {
  const left = Buffer.from(a, 'hex')
  const right = Buffer.from(b, 'hex')
  return left.length === right.length && timingSafeEqual(left, right)
}
