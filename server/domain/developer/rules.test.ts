import { describe, expect, it } from 'vitest'
import type { ApiKeyRole } from '../../../contract/developer.ts'
import { hashKey, newKeySecret, publicIdOf, sameHash } from './key-secret.ts'
import {
  canonicalIpRule,
  ipAllowed,
  type KeyAction,
  parseAllowedIps,
  refusal,
  stricterAction,
} from './rules.ts'

describe('what a key role may do', () => {
  // role, action, sandbox deployment?, the role needed (undefined: allowed)
  const table: [ApiKeyRole, KeyAction, boolean, ApiKeyRole | undefined][] = [
    ['READ_ONLY', 'read', true, undefined],
    ['READ_ONLY', 'write', true, 'DEVELOPER'],
    ['READ_ONLY', 'money', true, 'DEVELOPER'],
    ['READ_ONLY', 'payout', true, 'PRODUCTION'],
    ['READ_ONLY', 'read', false, undefined],
    ['READ_ONLY', 'write', false, 'DEVELOPER'],
    ['READ_ONLY', 'money', false, 'PRODUCTION'],
    ['READ_ONLY', 'payout', false, 'PRODUCTION'],
    ['DEVELOPER', 'read', true, undefined],
    ['DEVELOPER', 'write', true, undefined],
    ['DEVELOPER', 'money', true, undefined],
    ['DEVELOPER', 'payout', true, 'PRODUCTION'],
    ['DEVELOPER', 'read', false, undefined],
    ['DEVELOPER', 'write', false, undefined],
    ['DEVELOPER', 'money', false, 'PRODUCTION'],
    ['DEVELOPER', 'payout', false, 'PRODUCTION'],
    ['PRODUCTION', 'read', true, undefined],
    ['PRODUCTION', 'write', true, undefined],
    ['PRODUCTION', 'money', true, undefined],
    ['PRODUCTION', 'payout', true, undefined],
    ['PRODUCTION', 'read', false, undefined],
    ['PRODUCTION', 'write', false, undefined],
    ['PRODUCTION', 'money', false, undefined],
    ['PRODUCTION', 'payout', false, undefined],
  ]
  it.each(table)('%s %s (sandbox: %s) needs %s', (role, action, sandbox, needed) => {
    const answer = refusal({ role, allowListed: true }, action, sandbox)
    expect(answer).toEqual(needed && { kind: 'role', required: needed })
  })

  it.each([
    ['read', undefined],
    ['write', undefined],
    ['money', undefined],
    ['payout', { kind: 'allow_list' }],
  ] as const)('a PRODUCTION key usable from anywhere, %s: %j', (action, answer) => {
    for (const sandbox of [true, false]) {
      expect(refusal({ role: 'PRODUCTION', allowListed: false }, action, sandbox)).toEqual(answer)
    }
  })

  it.each([
    ['read', 'write', 'write'],
    ['money', 'write', 'money'],
    ['payout', 'money', 'payout'],
    ['read', 'read', 'read'],
  ] as const)('the stricter of %s and %s is %s', (a, b, stricter) => {
    expect(stricterAction(a, b)).toBe(stricter)
    expect(stricterAction(b, a)).toBe(stricter)
  })
})

describe('IP allow-lists', () => {
  it('keeps addresses and networks in one canonical form', () => {
    expect(canonicalIpRule(' 203.0.113.7 ')).toBe('203.0.113.7')
    expect(canonicalIpRule('203.0.113.7/32')).toBe('203.0.113.7')
    expect(canonicalIpRule('203.0.113.0/24')).toBe('203.0.113.0/24')
    expect(canonicalIpRule('2001:DB8::/32')).toBe('2001:db8::/32')
    expect(canonicalIpRule('::ffff:198.51.100.4')).toBe('198.51.100.4')
  })

  it.each([
    'example.com',
    '203.0.113.256',
    '203.0.113.0/33',
    '2001:db8::/129',
    '1.2.3.4/x',
    '1.2.3.4/8/8',
    '',
  ])('refuses %j', (entry) => {
    expect(canonicalIpRule(entry)).toBeUndefined()
  })

  it('names every bad entry by its index and drops duplicates', () => {
    expect(parseAllowedIps(['10.0.0.1', 'nope', '10.0.0.1/32', '::1/200'])).toEqual({
      ok: false,
      errors: [
        { field: '/body/allowed_ips/1', message: expect.stringContaining('"nope"') },
        { field: '/body/allowed_ips/3', message: expect.stringContaining('"::1/200"') },
      ],
    })
    expect(parseAllowedIps(['10.0.0.1', '10.0.0.1/32'])).toEqual({ ok: true, rules: ['10.0.0.1'] })
  })

  it('allows any address with an empty list, else only the listed ones', () => {
    expect(ipAllowed([], '198.51.100.1')).toBe(true)
    const rules = ['203.0.113.0/24', '2001:db8::/32', '192.0.2.10']
    expect(ipAllowed(rules, '203.0.113.99')).toBe(true)
    expect(ipAllowed(rules, '::ffff:203.0.113.99')).toBe(true)
    expect(ipAllowed(rules, '192.0.2.10')).toBe(true)
    expect(ipAllowed(rules, '2001:db8:1::5')).toBe(true)
    expect(ipAllowed(rules, '192.0.2.11')).toBe(false)
    expect(ipAllowed(rules, '203.0.114.1')).toBe(false)
    expect(ipAllowed(rules, '2001:db9::1')).toBe(false)
    expect(ipAllowed(rules, 'not-an-ip')).toBe(false)
  })
})

describe('key secrets', () => {
  it('reads fpk_<16 hex>_<43 base64url>, and only that', () => {
    const secret = newKeySecret()
    expect(secret.key).toMatch(/^fpk_[0-9a-f]{16}_[A-Za-z0-9_-]{43}$/)
    expect(publicIdOf(secret.key)).toBe(secret.publicId)
    expect(publicIdOf(`${secret.key}x`)).toBeUndefined()
    expect(publicIdOf(secret.key.replace('fpk_', 'fpx_'))).toBeUndefined()
    expect(publicIdOf('')).toBeUndefined()
  })

  it('keeps the SHA-256 of the key, never the key, and compares digests whole', () => {
    const secret = newKeySecret()
    expect(secret.hash).toBe(hashKey(secret.key))
    expect(secret.hash).toMatch(/^[0-9a-f]{64}$/)
    expect(sameHash(secret.hash, hashKey(secret.key))).toBe(true)
    expect(sameHash(secret.hash, hashKey(newKeySecret().key))).toBe(false)
    expect(sameHash(secret.hash, secret.hash.slice(0, 62))).toBe(false)
  })

  it('draws a different key each time', () => {
    const keys = new Set(Array.from({ length: 50 }, () => newKeySecret().key))
    expect(keys.size).toBe(50)
  })
})
