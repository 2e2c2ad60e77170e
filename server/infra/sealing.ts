import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto'

/*
 * Secrets at rest (address seeds, card numbers, proof signing keys): AES-256-GCM
 * under a 32-byte key of config.secrets, with additional data that names the
 * row's owner, so a sealed value copied to another tenant's or card's row fails
 * to open instead of serving the wrong owner. Stored as
 * `v1.<iv>.<tag>.<ciphertext>` (base64url), so a later key rotation can tell
 * old rows from new ones.
 */

const VERSION = 'v1'
const IV_BYTES = 12
const TAG_BYTES = 16

export function seal(key: Uint8Array, additionalData: string, plaintext: Uint8Array): string {
  const iv = randomBytes(IV_BYTES)
  const cipher = createCipheriv('aes-256-gcm', key, iv)
  cipher.setAAD(Buffer.from(additionalData))
  const ciphertext = Buffer.concat([cipher.update(plaintext), cipher.final()])
  return [VERSION, iv, cipher.getAuthTag(), ciphertext]
    .map((part) => (typeof part === 'string' ? part : part.toString('base64url')))
    .join('.')
}

/** The sealed value's kind of failure: a format this code does not know, or a wrong key or owner. */
export type UnsealFailure = 'format' | 'key'

/**
 * The plaintext, or why it cannot be had: `format` for a value not in the
 * `v1.…` shape, `key` when the key, the additional data or the bytes are not
 * the ones it was sealed with.
 */
export function unseal(
  key: Uint8Array,
  additionalData: string,
  sealed: string,
): { ok: true; plaintext: Uint8Array } | { ok: false; failure: UnsealFailure } {
  const [version, iv, tag, ciphertext] = sealed.split('.')
  if (version !== VERSION || !iv || !tag || ciphertext === undefined) {
    return { ok: false, failure: 'format' }
  }
  const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'), {
    authTagLength: TAG_BYTES,
  })
  decipher.setAAD(Buffer.from(additionalData))
  decipher.setAuthTag(Buffer.from(tag, 'base64url'))
  try {
    const plaintext = Buffer.concat([
      decipher.update(Buffer.from(ciphertext, 'base64url')),
      decipher.final(),
    ])
    return { ok: true, plaintext: new Uint8Array(plaintext) }
  } catch {
    return { ok: false, failure: 'key' }
  }
}
