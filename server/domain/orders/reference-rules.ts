/**
 * A bank deposit's reference (`FP-XXXX-XXXX`): drawn, and read back as a person types it on
 * a bank's form. Pure: no IO.
 */

/** Crockford's base32: no I, L, O or U, so a reference read aloud or retyped survives. */
const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ'

/** `FP-XXXX-XXXX` from 5 random bytes (40 bits: collisions are for the unique index to catch). */
export function formatReference(bytes: Uint8Array): string {
  if (bytes.length !== 5) throw new Error('a reference is drawn from 5 bytes')
  let value = 0n
  for (const byte of bytes) value = (value << 8n) | BigInt(byte)
  let chars = ''
  for (let i = 0; i < 8; i++) {
    chars = CROCKFORD[Number(value & 31n)] + chars
    value >>= 5n
  }
  return `FP-${chars.slice(0, 4)}-${chars.slice(4)}`
}

/**
 * A reference as typed on a bank's form: any case, spaces or dashes anywhere,
 * the letters Crockford reads as digits (I, L → 1; O → 0). Undefined when it
 * cannot be one of ours.
 */
export function normalizeReference(text: string): string | undefined {
  const compact = text
    .toUpperCase()
    .replace(/[\s-]/g, '')
    .replace(/^FP/, '')
    .replace(/[IL]/g, '1')
    .replace(/O/g, '0')
  if (!/^[0-9A-HJKMNP-TV-Z]{8}$/.test(compact)) return undefined
  return `FP-${compact.slice(0, 4)}-${compact.slice(4)}`
}
