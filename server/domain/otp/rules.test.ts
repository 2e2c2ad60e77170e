import { describe, expect, it } from 'vitest'
import { CodeHasher, generateCode } from './code-hash.ts'
import { composeMessage } from './messages.ts'
import {
  type AttemptState,
  activeBlock,
  afterWrongCode,
  type CodeVerdict,
  judgeCode,
  maskDestination,
  normaliseEmail,
  type OtpSettings,
  type Recipient,
  resendWait,
} from './rules.ts'

const NOW = new Date('2026-03-01T12:00:00.000Z')
const ago = (ms: number) => new Date(NOW.getTime() - ms)
const later = (ms: number) => new Date(NOW.getTime() + ms)
const SETTINGS: OtpSettings = { ttl: 300, resendInterval: 60, maxAttempts: 5, blockDuration: 900 }

describe('maskDestination', () => {
  const cases: Array<[string, Recipient, string]> = [
    [
      'an e-mail keeps its first letter and domain',
      { channel: 'email', identifier: 'ada@example.com' },
      'a•••@example.com',
    ],
    ['a one-letter mailbox', { channel: 'email', identifier: 'a@b.io' }, 'a•••@b.io'],
    [
      'a phone keeps its last four digits',
      { channel: 'sms', identifier: '14155552671' },
      '•••••••2671',
    ],
    ['a very short number is shown as is', { channel: 'sms', identifier: '1234' }, '1234'],
  ]
  it.each(cases)('%s', (_name, recipient, masked) => {
    expect(maskDestination(recipient)).toBe(masked)
  })
})

describe('resendWait', () => {
  const cases: Array<[string, Date | undefined, number]> = [
    ['nothing sent yet: send now', undefined, 0],
    ['sent just now: wait the whole interval', NOW, 60],
    ['sent 59.5 s ago: wait the last second, rounded up', ago(59_500), 1],
    ['sent exactly an interval ago: send now', ago(60_000), 0],
    ['sent long ago: send now', ago(3_600_000), 0],
  ]
  it.each(cases)('%s', (_name, lastSentAt, wait) => {
    expect(resendWait(lastSentAt, NOW, SETTINGS)).toBe(wait)
  })

  it('no interval never waits', () => {
    expect(resendWait(NOW, NOW, { ...SETTINGS, resendInterval: 0 })).toBe(0)
  })
})

describe('judgeCode', () => {
  const cases: Array<[string, { expiresAt: Date; matches: boolean } | undefined, CodeVerdict]> = [
    ['no live code: whatever is typed is wrong', undefined, 'wrong'],
    ['the right code in time is valid', { expiresAt: later(1), matches: true }, 'valid'],
    ['a wrong code in time is wrong', { expiresAt: later(1), matches: false }, 'wrong'],
    [
      'the right code at the instant it expires is expired',
      { expiresAt: NOW, matches: true },
      'expired',
    ],
    [
      'a wrong code for an expired live code is expired too',
      { expiresAt: ago(1), matches: false },
      'expired',
    ],
  ]
  it.each(cases)('%s', (_name, live, verdict) => {
    expect(judgeCode(live, NOW)).toBe(verdict)
  })
})

describe('activeBlock', () => {
  it('is the block end while it lasts, and nothing from its last instant on', () => {
    const state = (blockedUntil: Date | null): AttemptState => ({
      failedAttempts: 0,
      lastFailedAt: null,
      blockedUntil,
    })
    expect(activeBlock(undefined, NOW)).toBeUndefined()
    expect(activeBlock(state(null), NOW)).toBeUndefined()
    expect(activeBlock(state(later(1)), NOW)).toEqual(later(1))
    expect(activeBlock(state(NOW), NOW)).toBeUndefined()
  })
})

describe('afterWrongCode', () => {
  const state = (failedAttempts: number, lastFailedAt: Date | null): AttemptState => ({
    failedAttempts,
    lastFailedAt,
    blockedUntil: null,
  })
  const cases: Array<
    [string, AttemptState | undefined, { failed: number; left: number; blocked: boolean }]
  > = [
    ['the first wrong code leaves four', undefined, { failed: 1, left: 4, blocked: false }],
    ['the fourth leaves one', state(3, ago(1_000)), { failed: 4, left: 1, blocked: false }],
    [
      'the fifth blocks and starts the count afresh',
      state(4, ago(1_000)),
      { failed: 0, left: 0, blocked: true },
    ],
    [
      'wrong codes older than the block duration are forgotten',
      state(4, ago(900_000)),
      { failed: 1, left: 4, blocked: false },
    ],
    [
      'wrong codes just inside the block duration still count',
      state(4, ago(899_999)),
      { failed: 0, left: 0, blocked: true },
    ],
  ]
  it.each(cases)('%s', (_name, before, expected) => {
    const after = afterWrongCode(before, NOW, SETTINGS)
    expect(after.failedAttempts).toBe(expected.failed)
    expect(after.attemptsLeft).toBe(expected.left)
    expect(after.blockedUntil).toEqual(expected.blocked ? later(900_000) : null)
    expect(after.lastFailedAt).toEqual(expected.blocked ? null : NOW)
  })

  it('a limit of one blocks at the first wrong code', () => {
    expect(afterWrongCode(undefined, NOW, { ...SETTINGS, maxAttempts: 1 }).blockedUntil).toEqual(
      later(900_000),
    )
  })
})

describe('codes and their hashes', () => {
  const hasher = new CodeHasher(new Uint8Array(32).fill(7))

  it('a code is six digits, leading zeros kept', () => {
    for (let i = 0; i < 200; i++) expect(generateCode()).toMatch(/^\d{6}$/)
  })

  it('the hash matches its own code on its own row only, and does not contain the code', () => {
    const hash = hasher.hash('row-1', '012345')
    expect(hash).toMatch(/^[0-9a-f]{64}$/)
    expect(hash).not.toContain('012345')
    expect(hasher.matches('row-1', '012345', hash)).toBe(true)
    expect(hasher.matches('row-1', '012346', hash)).toBe(false)
    expect(hasher.matches('row-2', '012345', hash)).toBe(false)
    expect(hasher.matches('row-1', '012345', 'not-hex')).toBe(false)
  })

  it('another server key gives another hash', () => {
    const other = new CodeHasher(new Uint8Array(32).fill(8))
    expect(other.hash('row-1', '012345')).not.toBe(hasher.hash('row-1', '012345'))
  })
})

describe('composeMessage', () => {
  const base = { code: '123456', purpose: 'sign_in', ttlSeconds: 300 } as const
  it('an English SMS is the one sentence, without a subject', () => {
    expect(composeMessage({ ...base, channel: 'sms', language: 'en' })).toEqual({
      body: 'Your Finplatform code is 123456. It expires in 5 minutes.',
    })
  })
  it('a Russian SMS', () => {
    expect(composeMessage({ ...base, channel: 'sms', language: 'ru' })).toEqual({
      body: 'Ваш код Finplatform: 123456. Срок действия — 5 минут.',
    })
  })
  it('an e-mail has a subject per purpose and a line for whoever did not ask', () => {
    const mail = composeMessage({
      ...base,
      channel: 'email',
      language: 'en',
      purpose: 'change_email',
    })
    expect(mail.subject).toBe('Confirm your new e-mail address for Finplatform')
    expect(mail.body).toMatch(
      /^Your Finplatform code is 123456\. It expires in 5 minutes\.\n\nIf you did not ask/,
    )
  })
  const lifetimes: Array<[number, 'en' | 'ru', string]> = [
    [60, 'en', '1 minute'],
    [1, 'en', '1 second'],
    [90, 'en', '90 seconds'],
    [60, 'ru', '1 минута'],
    [120, 'ru', '2 минуты'],
    [300, 'ru', '5 минут'],
    [1, 'ru', '1 секунда'],
  ]
  it.each(lifetimes)('a lifetime of %i s reads, in %s, "%s"', (ttlSeconds, language, words) => {
    expect(composeMessage({ ...base, ttlSeconds, channel: 'sms', language }).body).toContain(words)
  })
})

describe('normaliseEmail', () => {
  const cases: Array<[string, string, string]> = [
    ['an address already normal is unchanged', 'ada@example.com', 'ada@example.com'],
    [
      'letter case never makes a second account',
      'Ada.Lovelace@Example.COM',
      'ada.lovelace@example.com',
    ],
    ['surrounding spaces and tabs are dropped', ' \tada@example.com \n', 'ada@example.com'],
    ['case and spaces together', '  ADA@EXAMPLE.COM ', 'ada@example.com'],
    ['non-ASCII letters are lower-cased too', 'Ärzte@Example.de', 'ärzte@example.de'],
    [
      'inner characters are kept as typed',
      'ada+Bank.Alerts@example.com',
      'ada+bank.alerts@example.com',
    ],
  ]

  it.each(cases)('%s', (_name, input, expected) => {
    expect(normaliseEmail(input)).toBe(expected)
  })

  it('normalising twice changes nothing more', () => {
    for (const [, input] of cases) {
      expect(normaliseEmail(normaliseEmail(input))).toBe(normaliseEmail(input))
    }
  })
})
