import { describe, expect, it } from 'vitest'
import type { CardStatus } from '../../../contract/cards.ts'
import { checkEntry } from '../ledger/rules.ts'
import {
  type AuthorizationFacts,
  cardCsvLine,
  clearingPostings,
  dayStart,
  decide,
  holdPostings,
  monthStart,
  refundPostings,
  reversalPostings,
  threeDsLocked,
} from './rules.ts'

const facts = (over: Partial<AuthorizationFacts> = {}): AuthorizationFacts => ({
  threeDs: 'NOT_ASKED',
  cardStatus: 'ACTIVE',
  accountStatus: 'ACTIVE',
  controls: undefined,
  amount: 100n,
  balance: 1_000n,
  limits: { per_transaction: 500n, daily: 700n, monthly: 900n },
  spentToday: 0n,
  spentThisMonth: 0n,
  ...over,
})

describe('decide: the processor’s answer to an authorisation', () => {
  it.each<[string, Partial<AuthorizationFacts>, ReturnType<typeof decide>]>([
    ['within everything', {}, { status: 'APPROVED' }],
    [
      'exactly at every limit and the balance',
      { amount: 500n, balance: 500n, spentToday: 200n, spentThisMonth: 400n },
      { status: 'APPROVED' },
    ],
    [
      'over the per-transaction limit',
      { amount: 501n },
      { status: 'DECLINED', reason: 'LIMIT_EXCEEDED', limit: 'per_transaction' },
    ],
    [
      'over the daily sum',
      { spentToday: 601n, spentThisMonth: 601n },
      { status: 'DECLINED', reason: 'LIMIT_EXCEEDED', limit: 'daily' },
    ],
    [
      'over the monthly sum',
      { spentToday: 0n, spentThisMonth: 801n },
      { status: 'DECLINED', reason: 'LIMIT_EXCEEDED', limit: 'monthly' },
    ],
    [
      'over the balance',
      { balance: 99n },
      { status: 'DECLINED', reason: 'INSUFFICIENT_FUNDS', limit: null },
    ],
    [
      'limits before balance',
      { amount: 501n, balance: 0n },
      { status: 'DECLINED', reason: 'LIMIT_EXCEEDED', limit: 'per_transaction' },
    ],
    [
      'account not active',
      { accountStatus: 'BLOCKED', amount: 501n },
      { status: 'DECLINED', reason: 'ACCOUNT_UNAVAILABLE', limit: null },
    ],
    [
      'the controls before the limits and the balance',
      { controls: { reason: 'CHANNEL_BLOCKED', limit: null }, amount: 501n, balance: 0n },
      { status: 'DECLINED', reason: 'CHANNEL_BLOCKED', limit: null },
    ],
    [
      'a category limit names its window',
      { controls: { reason: 'CATEGORY_LIMIT_EXCEEDED', limit: 'daily' } },
      { status: 'DECLINED', reason: 'CATEGORY_LIMIT_EXCEEDED', limit: 'daily' },
    ],
    [
      'the account before the controls',
      { accountStatus: 'BLOCKED', controls: { reason: 'COUNTRY_BLOCKED', limit: null } },
      { status: 'DECLINED', reason: 'ACCOUNT_UNAVAILABLE', limit: null },
    ],
    [
      'card status first',
      { cardStatus: 'FROZEN', accountStatus: 'CANCELED' },
      { status: 'DECLINED', reason: 'CARD_FROZEN', limit: null },
    ],
    ['a 3-D Secure code that passed', { threeDs: 'PASSED' }, { status: 'APPROVED' }],
    [
      'a 3-D Secure code that failed, before everything else',
      { threeDs: 'FAILED', cardStatus: 'FROZEN', amount: 501n, balance: 0n },
      { status: 'DECLINED', reason: 'THREE_DS_FAILED', limit: null },
    ],
    [
      'a passed code approves nothing the rest declines',
      { threeDs: 'PASSED', balance: 99n },
      { status: 'DECLINED', reason: 'INSUFFICIENT_FUNDS', limit: null },
    ],
  ])('%s', (_, over, expected) => {
    expect(decide(facts(over))).toEqual(expected)
  })

  it.each<[CardStatus, string]>([
    ['FROZEN', 'CARD_FROZEN'],
    ['BLOCKED', 'CARD_BLOCKED'],
    ['INACTIVE', 'CARD_INACTIVE'],
    ['CANCELED', 'CARD_CANCELED'],
    ['CLOSED', 'CARD_CLOSED'],
  ])('a %s card declines %s', (cardStatus, reason) => {
    expect(decide(facts({ cardStatus }))).toMatchObject({ status: 'DECLINED', reason })
  })
})

describe('threeDsLocked: wrong 3-D Secure codes are bounded like activation codes', () => {
  const now = new Date('2031-03-10T12:00:00Z')
  const ago = (minutes: number) => new Date(now.getTime() - minutes * 60_000)
  it.each([
    ['no wrong code yet', { failures: 0, since: null }, false],
    ['four wrong codes within the hour', { failures: 4, since: ago(10) }, false],
    ['five wrong codes within the hour', { failures: 5, since: ago(59) }, true],
    ['five wrong codes, the hour over', { failures: 5, since: ago(60) }, false],
  ])('%s: locked %s', (_, tries, locked) => {
    expect(threeDsLocked(tries, now)).toBe(locked)
  })
})

describe('limit windows (UTC)', () => {
  it('starts the day at 00:00 UTC and the month on the 1st', () => {
    expect(dayStart(new Date('2031-03-10T23:59:59.999Z')).toISOString()).toBe(
      '2031-03-10T00:00:00.000Z',
    )
    expect(monthStart(new Date('2031-03-31T23:59:59Z')).toISOString()).toBe(
      '2031-03-01T00:00:00.000Z',
    )
    expect(monthStart(new Date('2031-01-01T00:00:00Z')).toISOString()).toBe(
      '2031-01-01T00:00:00.000Z',
    )
  })
})

describe('ledger legs', () => {
  const a = { spendable: 'S', hold: 'H', external: 'X' }
  it('balances every step and moves what it should', () => {
    expect(holdPostings(a, 'EUR', 100n)).toEqual([
      { account: 'S', currency: 'EUR', amount: -100n },
      { account: 'H', currency: 'EUR', amount: 100n },
    ])
    expect(clearingPostings(a, 'EUR', 100n, 80n)).toEqual([
      { account: 'H', currency: 'EUR', amount: -100n },
      { account: 'X', currency: 'EUR', amount: 80n },
      { account: 'S', currency: 'EUR', amount: 20n },
    ])
    expect(clearingPostings(a, 'EUR', 100n, 100n)).toHaveLength(2)
    for (const legs of [
      holdPostings(a, 'EUR', 5n),
      clearingPostings(a, 'EUR', 9n, 4n),
      reversalPostings(a, 'EUR', 9n),
      refundPostings(a, 'EUR', 3n),
    ]) {
      expect(checkEntry(legs)).toBeUndefined()
    }
  })

  it('refuses a clearing of nothing or of more than the hold', () => {
    expect(() => clearingPostings(a, 'EUR', 100n, 101n)).toThrow(RangeError)
    expect(() => clearingPostings(a, 'EUR', 100n, 0n)).toThrow(RangeError)
  })
})

describe('cardCsvLine', () => {
  it('neutralises formula cells and quotes per RFC 4180', () => {
    const line = cardCsvLine({
      id: 'i',
      card_id: 'c',
      activity_id: null,
      card_last4: '0042',
      fiat_account_id: 'f',
      wallet_uuid: 'w',
      type: 'AUTHORIZATION',
      status: 'APPROVED',
      amount: '1.00',
      currency: 'EUR',
      currency_uuid: 'u',
      merchant: { name: '@SUM(A1)', mcc: '5411', city: '-1, "x"', country: 'PT' },
      decline_reason: null,
      exceeded_limit: null,
      channel: 'online',
      authorization_id: null,
      created_at: '2031-01-01T00:00:00.000Z',
      updated_at: '2031-01-01T00:00:00.000Z',
    })
    expect(line).toBe(
      `i,2031-01-01T00:00:00.000Z,0042,AUTHORIZATION,APPROVED,1.00,EUR,'@SUM(A1),5411,"'-1, ""x""",PT,,,\r\n`,
    )
  })
})
