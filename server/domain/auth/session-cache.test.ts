import { describe, expect, it } from 'vitest'
import {
  type LiveSession,
  parseSessionEnd,
  SessionCache,
  type SessionEnd,
} from './session-cache.ts'

const live = (sessionId: string, userId = 'u1', tenantId = 't1') => ({
  claims: { sessionId, userId, tenantId },
  entry: {
    tenantId,
    userId,
    user: {
      id: userId,
      email: null,
      phone: null,
      telegram_id: null,
      kyc_status: 'UNVERIFIED',
      created_at: new Date(0),
    },
    products: { crypto: true, fiat: true, cards: true, exchange: true, p2p: true },
  } satisfies LiveSession,
})

/** A listening cache holding the given sessions, kept in that order. */
function cacheOf(size: number, ...sessions: ReturnType<typeof live>[]): SessionCache {
  const cache = new SessionCache(size)
  cache.listening()
  for (const { claims, entry } of sessions) cache.keep(claims.sessionId, entry, cache.epoch)
  return cache
}

describe('parseSessionEnd', () => {
  const cases: Array<[string, SessionEnd | undefined]> = [
    ['s:0191', { kind: 'session', id: '0191' }],
    ['u:0191', { kind: 'user', id: '0191' }],
    ['t:0191', { kind: 'tenant', id: '0191' }],
    ['x:0191', undefined],
    ['s:', undefined],
    ['s0191', undefined],
    ['', undefined],
  ]
  it.each(cases)('%j is %j', (payload, ended) => {
    expect(parseSessionEnd(payload)).toEqual(ended)
  })
})

describe('SessionCache', () => {
  const [a, b, c] = [live('a'), live('b', 'u2'), live('c', 'u2', 't2')]

  it('finds a kept session only by its own tenant and user', () => {
    const cache = cacheOf(10, a)
    expect(cache.find(a.claims)).toBe(a.entry)
    expect(cache.find({ ...a.claims, userId: 'u2' })).toBeUndefined()
    expect(cache.find({ ...a.claims, tenantId: 't2' })).toBeUndefined()
  })

  it('drops the least recently used past its size; size 0 keeps nothing', () => {
    const cache = cacheOf(2, a, b)
    cache.find(a.claims)
    cache.keep('c', c.entry, cache.epoch)
    expect([cache.find(a.claims), cache.find(b.claims), cache.find(c.claims)]).toEqual([
      a.entry,
      undefined,
      c.entry,
    ])
    expect(cacheOf(0, a).count).toBe(0)
  })

  const ends: Array<[string, SessionEnd | undefined, string[]]> = [
    ['a session drops it alone', { kind: 'session', id: 'b' }, ['a', 'c']],
    ['a user drops each of their sessions', { kind: 'user', id: 'u2' }, ['a']],
    ['a tenant drops each of its sessions', { kind: 'tenant', id: 't1' }, ['c']],
    ['an end this build cannot read drops everything', undefined, []],
  ]
  it.each(ends)('%s', (_, ended, left) => {
    const cache = cacheOf(10, a, b, c)
    cache.end(ended)
    expect([a, b, c].filter((s) => cache.find(s.claims)).map((s) => s.claims.sessionId)).toEqual(
      left,
    )
  })

  it('keeps no read that began before an end: it may carry what the end undid', () => {
    const cache = cacheOf(10)
    const began = cache.epoch
    cache.end({ kind: 'session', id: 'x' })
    cache.keep('a', a.entry, began)
    expect(cache.find(a.claims)).toBeUndefined()
  })

  it('trusts nothing before it listens, nor while the connection is lost; listening again starts empty', () => {
    const cache = new SessionCache(10)
    cache.keep('a', a.entry, cache.epoch)
    expect(cache.find(a.claims)).toBeUndefined()

    cache.listening()
    const beforeLoss = cache.epoch
    cache.keep('a', a.entry, beforeLoss)
    expect(cache.find(a.claims)).toBe(a.entry)

    cache.lost()
    expect([cache.trusted, cache.find(a.claims), cache.count]).toEqual([false, undefined, 0])
    cache.keep('a', a.entry, cache.epoch)
    expect(cache.count).toBe(0)

    const duringLoss = cache.epoch
    cache.listening()
    cache.keep('a', a.entry, duringLoss)
    expect([cache.trusted, cache.count]).toEqual([true, 0])
  })
})
