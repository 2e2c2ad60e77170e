import { createHash } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { canonicalHash, idempotencyKey } from './idempotency.ts'
import { requestHash } from './orders/rules.ts'

describe('canonicalHash', () => {
  it('does not depend on the order of keys, at any depth', () => {
    const a = { type: 'AUTHORIZATION', merchant: { name: 'Shop', mcc: '5411' }, amount: '100' }
    const b = { amount: '100', merchant: { mcc: '5411', name: 'Shop' }, type: 'AUTHORIZATION' }
    expect(canonicalHash(a)).toBe(canonicalHash(b))
  })

  it('tells different values, array orders and missing from null apart only where they differ', () => {
    const base = canonicalHash({ a: 1, list: [1, 2] })
    expect(canonicalHash({ a: 2, list: [1, 2] })).not.toBe(base)
    expect(canonicalHash({ a: 1, list: [2, 1] })).not.toBe(base)
    expect(canonicalHash({ a: '1', list: [1, 2] })).not.toBe(base)
    expect(canonicalHash({ a: undefined })).toBe(canonicalHash({ a: null }))
  })

  it('hashes an order placement exactly as before it was shared (stored hashes stay valid)', () => {
    const quoteId = '0190F5A4-0000-7000-8000-000000000001'
    const before = createHash('sha256')
      .update(
        JSON.stringify([
          ['note', 'rent'],
          ['order_type', 'WITHDRAWAL_CRYPTO'],
          ['quote_id', quoteId.toLowerCase()],
        ]),
      )
      .digest('hex')
    expect(requestHash({ orderType: 'WITHDRAWAL_CRYPTO', quoteId, note: 'rent' })).toBe(before)
  })
})

describe('idempotencyKey', () => {
  it('is the body’s request_id, else the header, else none', () => {
    expect(idempotencyKey({ requestId: 'r', header: 'h' })).toBe('r')
    expect(idempotencyKey({ header: 'h' })).toBe('h')
    expect(idempotencyKey({})).toBeUndefined()
  })
})
