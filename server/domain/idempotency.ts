import { createHash } from 'node:crypto'

/**
 * The canonical text of a request: objects become their `[key, value]` pairs
 * sorted by key, at every level, arrays keep their order, `undefined` is null.
 * So the hash never depends on how a client ordered its JSON keys.
 */
function canonical(value: unknown): unknown {
  if (value === undefined) return null
  if (Array.isArray(value)) return value.map(canonical)
  if (value !== null && typeof value === 'object') {
    return Object.keys(value)
      .sort()
      .map((key) => [key, canonical((value as Record<string, unknown>)[key])])
  }
  return value
}

/**
 * SHA-256 (hex) of a request's canonical text: what tells a replay under an
 * idempotency key from another request under the same key (orders, card
 * creation, card network messages). Normalise values (case of ids, amounts in
 * minor units) before hashing; key order is taken care of here.
 */
export function canonicalHash(request: unknown): string {
  return createHash('sha256')
    .update(JSON.stringify(canonical(request)))
    .digest('hex')
}

/**
 * The idempotency key a client sent: the body's `request_id`, else the
 * `Idempotency-Key` header, else none.
 */
export const idempotencyKey = (request: {
  requestId?: string | undefined
  header?: string | undefined
}): string | undefined => request.requestId ?? request.header
