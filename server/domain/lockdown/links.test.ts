import { randomBytes, randomUUID } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { LINK_TTL_SECONDS, LockdownLinks } from './links.ts'

const NOW = new Date('2026-11-29T10:00:00Z')
const links = new LockdownLinks(randomBytes(32))

/** The token with one character of its body changed (still base64url, still 62 characters). */
const altered = (token: string, at: number) =>
  `${token.slice(0, at)}${token[at] === 'A' ? 'B' : 'A'}${token.slice(at + 1)}`

describe('one-tap lockdown tokens', () => {
  it('name their person and channel, fit in Telegram’s callback_data, and each has its own nonce', () => {
    const userId = randomUUID()
    const token = links.mint(userId, 'telegram', NOW)
    expect(Buffer.byteLength(token)).toBeLessThanOrEqual(64)
    const opened = links.open(token, NOW)
    expect(opened).toMatchObject({ userId, channel: 'telegram' })
    const again = links.open(links.mint(userId, 'telegram', NOW), NOW)
    expect(typeof again === 'object' && typeof opened === 'object' && again.nonce).not.toBe(
      typeof opened === 'object' && opened.nonce,
    )
  })

  it.each([
    ['the version', 0],
    ['the channel', 2],
    ['the expiry', 5],
    ['the nonce', 12],
    ['the person', 30],
    ['the signature', 55],
  ])('refuse a token whose %s was altered', (_, at) => {
    const token = links.mint(randomUUID(), 'email', NOW)
    expect(links.open(altered(token, at), NOW)).toBe('INVALID')
  })

  it.each([
    ['empty', ''],
    ['too short', 'abc'],
    ['not base64url', `${'*'.repeat(62)}`],
    ['too long', `${links.mint(randomUUID(), 'push', NOW)}A`],
  ])('refuse what is no token: %s', (_, token) => {
    expect(links.open(token, NOW)).toBe('INVALID')
  })

  it('refuse another server’s token, signed with another secret', () => {
    const theirs = new LockdownLinks(randomBytes(32)).mint(randomUUID(), 'push', NOW)
    expect(links.open(theirs, NOW)).toBe('INVALID')
  })

  it('work for 24 hours, not a second more', () => {
    const token = links.mint(randomUUID(), 'email', NOW)
    const at = (seconds: number) => new Date(NOW.getTime() + seconds * 1000)
    expect(links.open(token, at(LINK_TTL_SECONDS - 1))).toMatchObject({ channel: 'email' })
    expect(links.open(token, at(LINK_TTL_SECONDS))).toBe('EXPIRED')
  })
})
