import { describe, expect, it } from 'vitest'
import { StatementError } from './errors.ts'
import {
  addUp,
  checkPeriod,
  entrySource,
  groupedCode,
  initialsOf,
  normaliseCode,
  statementCode,
} from './rules.ts'
import { formatAmount, itemTitle, movementDescription } from './wording.ts'

const ID = '0190f4c2-7a1b-7c3d-8e4f-5a6b7c8d9e0f'

describe('what an entry was for, from its idempotency key', () => {
  it.each([
    [`order:${ID}:hold`, { kind: 'order', id: ID }],
    [`order:${ID.toUpperCase()}:settle`, { kind: 'order', id: ID }],
    [`deposit:${ID}:confirmed`, { kind: 'deposit', id: ID }],
    [`card_tx:${ID}:clear`, { kind: 'card_transaction', id: ID, refund: false }],
    [`card_tx:${ID}:refund`, { kind: 'card_transaction', id: ID, refund: true }],
    [`bank-credit:${ID}`, { kind: 'bank_credit', id: ID }],
    [`card:${ID}:closed`, { kind: 'card', id: ID, item: 'card_balance_return' }],
    [`card:${ID}:fee:issue`, { kind: 'card', id: ID, item: 'fee' }],
    [`card:${ID}:fee:2026-03`, { kind: 'card_fee', id: ID, period: '2026-03' }],
    [`card:${ID}:renamed`, { kind: 'unknown' }],
    [`test-credit:${ID}`, { kind: 'unknown' }],
    ['order:not-a-uuid:hold', { kind: 'unknown' }],
    ['', { kind: 'unknown' }],
  ])('%s → %j', (key, source) => {
    expect(entrySource(key)).toEqual(source)
  })
})

describe('adding a period up', () => {
  const at = (minute: number) => new Date(Date.UTC(2026, 2, 1, 0, minute))
  const move = (entryId: string, minute: number, currency: string, amount: bigint) => ({
    entryId,
    bookedAt: at(minute),
    currency,
    amount,
  })

  it.each([
    {
      name: 'running balances in booking order, then by entry id; totals in and out',
      openings: new Map([['EUR', 1000n]]),
      movements: [move('b', 2, 'EUR', -300n), move('a', 2, 'EUR', 50n), move('c', 1, 'EUR', 25n)],
      order: ['EUR'],
      always: [],
      expected: [
        {
          currency: 'EUR',
          opening: 1000n,
          moneyIn: 75n,
          moneyOut: 300n,
          closing: 775n,
          balances: [1025n, 1075n, 775n],
        },
      ],
    },
    {
      name: 'a currency with neither balance nor movement is left out, unless always shown',
      openings: new Map([['BTC', 0n]]),
      movements: [],
      order: ['BTC', 'EUR'],
      always: ['EUR'],
      expected: [
        { currency: 'EUR', opening: 0n, moneyIn: 0n, moneyOut: 0n, closing: 0n, balances: [] },
      ],
    },
    {
      name: 'a balance without movements keeps its section, in the catalogue’s order',
      openings: new Map([
        ['USDT', 5n],
        ['BTC', 7n],
      ]),
      movements: [move('x', 0, 'USDT', -5n)],
      order: ['BTC', 'USDT'],
      always: [],
      expected: [
        { currency: 'BTC', opening: 7n, moneyIn: 0n, moneyOut: 0n, closing: 7n, balances: [] },
        { currency: 'USDT', opening: 5n, moneyIn: 0n, moneyOut: 5n, closing: 0n, balances: [0n] },
      ],
    },
  ])('$name', ({ openings, movements, order, always, expected }) => {
    const sections = addUp(openings, movements, order, always)
    expect(
      sections.map(({ lines, ...section }) => ({
        ...section,
        balances: lines.map((line) => line.balance),
      })),
    ).toEqual(expected)
  })
})

describe('who, and the code', () => {
  it.each([
    ['Mia', 'Wagner', 'M. W.'],
    ['élodie', 'ßmith', 'É. SS.'],
    ['Анна', 'Шмидт', 'А. Ш.'],
    ['  ', '42 Street', 'S.'],
    [null, null, '–'],
  ])('%s %s → %s', (first, last, initials) => {
    expect(initialsOf(first, last)).toBe(initials)
  })

  it('a code is twelve Crockford characters, typed back in any case, grouping or look-alike', () => {
    const code = statementCode(new Uint8Array(Array.from({ length: 12 }, (_, i) => i * 23)))
    expect(code).toMatch(/^[0-9A-HJKMNP-TV-Z]{12}$/)
    expect(normaliseCode(groupedCode(code).toLowerCase())).toBe(code)
    expect(normaliseCode('0OIL-1234-ABCD')).toBe('0011-1234-ABCD'.replace(/-/g, ''))
    expect(normaliseCode('ABC')).toBeUndefined()
    expect(normaliseCode('UUUUUUUUUUUU')).toBeUndefined()
    expect(() => statementCode(new Uint8Array(4))).toThrow(RangeError)
  })
})

describe('which periods can be asked for', () => {
  const now = new Date('2026-03-15T12:00:00Z')
  const fields = { from: '/body/from', to: '/body/to', timeZone: '/body/time_zone' }
  const day = (iso: string) => new Date(`${iso}T00:00:00Z`)
  it.each([
    ['a month', day('2026-02-01'), day('2026-03-01'), 'Europe/Berlin', undefined],
    ['this month so far', day('2026-03-01'), day('2026-04-01'), 'UTC', '/body/to'],
    ['a year and two days', day('2025-02-28'), day('2026-03-02'), 'UTC', '/body/to'],
    ['nothing', day('2026-03-01'), day('2026-03-01'), 'UTC', '/body/from'],
    ['backwards', day('2026-03-02'), day('2026-03-01'), 'UTC', '/body/from'],
    ['an unknown zone', day('2026-02-01'), day('2026-03-01'), 'Europe/Atlantis', '/body/time_zone'],
  ])('%s', (_, from, to, timeZone, field) => {
    const check = () => checkPeriod({ from, to, timeZone }, now, fields)
    if (field === undefined) expect(check).not.toThrow()
    else {
      expect(check).toThrow(StatementError)
      try {
        check()
      } catch (error) {
        expect((error as StatementError).failure).toMatchObject({ kind: 'INVALID_PERIOD', field })
      }
    }
  })
})

describe('words and figures', () => {
  const eur = { code: 'EUR', decimals: 2, fiat: true }
  const btc = { code: 'BTC', decimals: 8, fiat: false }
  it.each([
    ['en', 123450n, eur, false, '€1,234.50'],
    ['ru', 123450n, eur, false, '1\u00a0234,50\u00a0€'],
    ['en', -1250n, eur, true, '−€12.50'],
    ['en', 1250n, eur, true, '+€12.50'],
    ['en', 101885n, btc, false, '0.00101885\u00a0BTC'],
    ['ru', 150000000n, btc, true, '+1,5\u00a0BTC'],
    ['en', 0n, btc, true, '0\u00a0BTC'],
  ] as const)('%s %s %s → %s', (language, minor, currency, signed, text) => {
    expect(formatAmount(language, minor, currency, { signed })).toBe(text)
  })

  const item = {
    type: 'card_purchase' as const,
    direction: 'out' as const,
    counterparty_name: null,
    merchant_name: 'Café Einstein',
    card_last4: '4242',
    address: null,
    fee_kind: null,
    currency: 'EUR',
    chain: null,
    received_currency: null,
  }
  it.each([
    ['en', item, false, 'Café Einstein'],
    ['ru', item, true, 'Возврат: Café Einstein'],
    [
      'en',
      { ...item, type: 'exchange', received_currency: 'BTC', currency: 'USDT', chain: 'tron' },
      false,
      'Exchange USDT → BTC',
    ],
    [
      'en',
      { ...item, type: 'send', counterparty_name: null, address: '0x52f1aaaaaaaaaaaaaaaa9a3c' },
      false,
      'To 0x52f1…9a3c',
    ],
    [
      'ru',
      { ...item, type: 'deposit', counterparty_name: null },
      false,
      'Входящий банковский перевод',
    ],
    ['en', { ...item, type: 'fee', fee_kind: 'MONTHLY' }, false, 'Card monthly fee'],
  ] as const)('%s: %j', (language, words, refund, text) => {
    expect(movementDescription(language, words, { refund, entryKind: 'x' })).toBe(text)
    if (!refund) expect(itemTitle(language, words)).toBe(text)
  })

  it('an entry no item stands for says what the ledger calls it', () => {
    expect(movementDescription('en', undefined, { refund: false, entryKind: 'test_credit' })).toBe(
      'Other movement (test_credit)',
    )
  })
})
