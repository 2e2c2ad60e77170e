import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  balanceDeltas,
  checkEntry,
  type Posting,
  reversal,
  samePostings,
  transfer,
} from './rules.ts'

const leg = (account: string, currency: string, amount: bigint): Posting => ({
  account,
  currency,
  amount,
})

describe('ledger posting rules', () => {
  it.each([
    ['a transfer', transfer('a', 'b', 'EUR', 5n), undefined],
    ['a self-transfer', transfer('a', 'a', 'EUR', 5n), undefined],
    [
      'two currencies each balanced',
      [...transfer('a', 'b', 'EUR', 5n), ...transfer('b', 'a', 'USD', 7n)],
      undefined,
    ],
    ['no legs', [], { kind: 'EMPTY_ENTRY' }],
    ['one leg', [leg('a', 'EUR', 5n)], { kind: 'EMPTY_ENTRY' }],
    ['a zero leg', [leg('a', 'EUR', 0n), leg('b', 'EUR', 0n)], { kind: 'ZERO_POSTING', index: 0 }],
    [
      'legs that do not sum to zero',
      [leg('a', 'EUR', -5n), leg('b', 'EUR', 4n)],
      { kind: 'UNBALANCED', currency: 'EUR', sum: -1n },
    ],
    [
      'balanced in total but not per currency',
      [leg('a', 'EUR', -5n), leg('b', 'USD', 5n)],
      { kind: 'UNBALANCED', currency: 'EUR', sum: -5n },
    ],
  ])('%s', (_name, postings, fault) => {
    expect(checkEntry(postings)).toEqual(fault)
  })

  it('a self-transfer nets to no balance change at all', () => {
    expect(balanceDeltas(transfer('a', 'a', 'EUR', 10n))).toEqual([])
  })

  it('deltas are netted per account and currency and come in lock order', () => {
    const postings = [
      leg('c', 'EUR', -3n),
      leg('a', 'EUR', 1n),
      leg('a', 'EUR', 2n),
      leg('b', 'USD', -4n),
      leg('a', 'USD', 4n),
    ]
    expect(balanceDeltas(postings)).toEqual([
      { account: 'a', currency: 'EUR', delta: 3n },
      { account: 'a', currency: 'USD', delta: 4n },
      { account: 'b', currency: 'USD', delta: -4n },
      { account: 'c', currency: 'EUR', delta: -3n },
    ])
  })

  it('samePostings ignores order but not amounts', () => {
    const postings = transfer('a', 'b', 'EUR', 5n)
    expect(samePostings(postings, [...postings].reverse())).toBe(true)
    expect(samePostings(postings, transfer('a', 'b', 'EUR', 6n))).toBe(false)
    expect(samePostings(postings, transfer('b', 'a', 'EUR', 5n))).toBe(false)
  })

  const accounts = fc.constantFrom('a', 'b', 'c', 'd')
  const currencies = fc.constantFrom('EUR', 'USD', 'ETH')
  const amounts = fc.bigInt({ min: 1n, max: 10n ** 30n })
  const transfers = fc
    .array(fc.tuple(accounts, accounts, currencies, amounts), { minLength: 1, maxLength: 8 })
    .map((list) =>
      list.flatMap(([from, to, currency, amount]) => transfer(from, to, currency, amount)),
    )

  it('any combination of transfers is a valid entry whose deltas sum to zero per currency', () => {
    fc.assert(
      fc.property(transfers, (postings) => {
        expect(checkEntry(postings)).toBeUndefined()
        const sums = new Map<string, bigint>()
        for (const { currency, delta } of balanceDeltas(postings)) {
          expect(delta).not.toBe(0n)
          sums.set(currency, (sums.get(currency) ?? 0n) + delta)
        }
        for (const sum of sums.values()) expect(sum).toBe(0n)
      }),
    )
  })

  it('an entry and its reversal together change no balance', () => {
    fc.assert(
      fc.property(transfers, (postings) => {
        const undone = reversal(postings)
        expect(checkEntry(undone)).toBeUndefined()
        expect(balanceDeltas([...postings, ...undone])).toEqual([])
        expect(samePostings(reversal(undone), postings)).toBe(true)
      }),
    )
  })
})
