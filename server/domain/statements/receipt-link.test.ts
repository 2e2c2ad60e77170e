import { describe, expect, it } from 'vitest'
import {
  type ReceiptClaims,
  readReceiptLink,
  receiptLinkKey,
  signReceiptLink,
} from './receipt-link.ts'

const key = receiptLinkKey(new Uint8Array(32).fill(7))
const now = new Date('2026-11-29T12:00:00Z')
const claims: ReceiptClaims = {
  tenantId: '2b7c6f0e-9d4a-4f3e-8a1b-5c6d7e8f9a01',
  userId: '0190f5e4-0000-7000-8000-000000000001',
  activityId: '0190f5e4-0000-7000-8000-000000000002',
  expiresAt: now.getTime() / 1000 + 600,
}

const BASE64URL = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_'
/** A last character that decodes to the same bytes: 16 bytes leave its low 4 bits spare. */
const spareBitSet = (last: string) => BASE64URL[BASE64URL.indexOf(last) ^ 1]!

describe('receipt links', () => {
  it('reads back what it signed until it expires, in one path segment of at most 100 characters', () => {
    const token = signReceiptLink(key, claims)
    expect(token.length).toBeLessThanOrEqual(100)
    expect(token).toMatch(/^[\w-]+\.[\w-]+$/)
    expect(readReceiptLink(key, token, now)).toEqual(claims)
    expect(readReceiptLink(key, token, new Date((claims.expiresAt - 1) * 1000))).toEqual(claims)
    expect(readReceiptLink(key, token, new Date(claims.expiresAt * 1000))).toBeUndefined()
  })

  it('refuses another key, a changed body or signature, and what is not a link', () => {
    const token = signReceiptLink(key, claims)
    const [body, signature] = token.split('.') as [string, string]
    const other = signReceiptLink(key, { ...claims, userId: claims.activityId })
    const forged = [
      signReceiptLink(receiptLinkKey(new Uint8Array(32).fill(8)), claims),
      `${other.split('.')[0]}.${signature}`,
      `${body}.${signature.slice(0, -2)}${signature.endsWith('AA') ? 'BA' : 'AA'}`,
      `${body}.${signature}.x`,
      // The same bytes spelled otherwise: the last character's spare bits set.
      `${body}.${signature.slice(0, -1)}${spareBitSet(signature.at(-1)!)}`,
      `${body.slice(4)}.${signature}`,
      body,
      '',
      '.',
    ]
    for (const token of forged) expect(readReceiptLink(key, token, now), token).toBeUndefined()
    // The spare-bit spelling is the same bytes: only the check of the spelling refuses it.
    expect(Buffer.from(forged[4]!.split('.')[1]!, 'base64url')).toEqual(
      Buffer.from(signature, 'base64url'),
    )
  })
})
