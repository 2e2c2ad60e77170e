import { describe, expect, it } from 'vitest'
import { merchantCategoryOf } from '../../../contract/merchant-categories.ts'
import {
  calendar,
  categoryOf,
  changePercent,
  conversionFor,
  convert,
  monthBefore,
  months,
  rateBasis,
  weekOf,
} from './rules.ts'

describe('merchant category groups (contract/merchant-categories.ts)', () => {
  it.each([
    ['7995', 'gambling'],
    ['7801', 'gambling'],
    ['6051', 'crypto'],
    ['5967', 'adult'],
    ['6011', 'cash'],
    ['3058', 'travel'],
    ['4511', 'travel'],
    ['7011', 'travel'],
    ['5411', 'groceries'],
    ['5814', 'restaurants'],
    ['7523', 'transport'],
    ['5541', 'transport'],
    ['5942', 'shopping'],
    ['5732', 'shopping'],
    ['4899', 'entertainment'],
    ['5815', 'entertainment'],
    ['4900', 'utilities'],
    ['5912', 'health'],
    ['8062', 'health'],
    ['0742', 'other'],
    ['12', 'other'],
    [null, 'other'],
  ])('%s → %s', (mcc, group) => {
    expect(merchantCategoryOf(mcc)).toBe(group)
  })

  it.each([
    ['send', null, 'transfers'],
    ['fee', '5411', 'fees'],
    ['card_purchase', '5411', 'groceries'],
  ] as const)('a %s (%s) is %s', (type, mcc, category) => {
    expect(categoryOf(type, mcc)).toBe(category)
  })
})

describe('converting into the display currency', () => {
  it.each([
    [1250n, 2, '1.0834', 2, 1354n],
    [-1250n, 2, '1.0834', 2, -1354n],
    [100000000n, 8, '97342.18', 2, 9734218n],
    [1n, 6, '0.92', 2, 0n],
    [5000n, 6, '0.92', 2, 0n],
    [5000000n, 6, '0.92', 2, 460n],
    [1234n, 2, '1', 2, 1234n],
  ])('%s at %s places × %s → %s at %s places', (minor, from, rate, to, expected) => {
    expect(convert(minor, from, rate, to)).toBe(expected)
  })

  const today = new Map([['USDT', '0.92']])
  it.each([
    [{ currency: 'EUR', received: null, rate: null }, { basis: 'same' }],
    [
      { currency: 'USDT', received: 'EUR', rate: '0.9105' },
      { basis: 'movement', rate: '0.9105' },
    ],
    [
      { currency: 'USDT', received: 'BTC', rate: '0.00001' },
      { basis: 'current', rate: '0.92' },
    ],
    [{ currency: 'SOL', received: null, rate: null }, { basis: 'none' }],
  ])('%j → %j', (movement, conversion) => {
    expect(conversionFor(movement, 'EUR', today)).toEqual(conversion)
  })

  it.each([
    [[], 'none'],
    [['same'], 'none'],
    [['same', 'movement'], 'movement'],
    [['current'], 'current'],
    [['movement', 'current', 'same'], 'mixed'],
  ] as const)('used %j → %s', (used, basis) => {
    expect(rateBasis(new Set(used))).toBe(basis)
  })

  it.each([
    [1250n, 2000n, '-37.5'],
    [2500n, 2000n, '25.0'],
    [2000n, 2000n, '0.0'],
    [1n, 3n, '-66.7'],
    [2n, 3n, '-33.3'],
    [0n, 500n, '-100.0'],
    [500n, 0n, null],
  ])('%s against %s → %s %%', (current, previous, percent) => {
    expect(changePercent(current, previous)).toBe(percent)
  })
})

describe('the calendar a period is cut into', () => {
  it.each([
    ['2026-03-09', '2026-03-09'],
    ['2026-03-15', '2026-03-09'],
    ['2026-03-01', '2026-02-23'],
  ])('the week of %s starts %s', (day, monday) => {
    expect(weekOf(day)).toBe(monday)
  })

  it('days and weeks in the zone, the last one holding to’s last instant', () => {
    const from = new Date('2026-03-28T23:30:00Z')
    const to = new Date('2026-03-31T22:00:00Z')
    expect(calendar(from, to, 'UTC', 'day')).toEqual([
      '2026-03-28',
      '2026-03-29',
      '2026-03-30',
      '2026-03-31',
    ])
    expect(calendar(from, to, 'Europe/Berlin', 'day')).toEqual([
      '2026-03-29',
      '2026-03-30',
      '2026-03-31',
    ])
    expect(calendar(from, to, 'UTC', 'week')).toEqual(['2026-03-23', '2026-03-30'])
  })

  it('months across a year’s end', () => {
    expect(
      months(new Date('2025-11-15T00:00:00Z'), new Date('2026-02-01T00:00:00Z'), 'UTC'),
    ).toEqual(['2025-11', '2025-12', '2026-01'])
    expect(monthBefore('2026-01')).toBe('2025-12')
    expect(monthBefore('2026-03')).toBe('2026-02')
  })
})
