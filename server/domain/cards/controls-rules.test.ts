import { describe, expect, it } from 'vitest'
import { type CardControls, defaultControls } from '../../../contract/card-controls.ts'
import { keptControls, loosens, storedControls } from './controls-rules.ts'

const controls = (over: Partial<CardControls> = {}): CardControls => ({
  ...defaultControls(),
  ...over,
})
const channels = (over: Partial<CardControls['channels']>) => ({
  ...defaultControls().channels,
  ...over,
})
const known = (code: string) => ['DE', 'FR', 'PT', 'RU', 'US'].includes(code)

describe('storedControls', () => {
  it('a card never set answers the defaults: every channel but the magnetic stripe', () => {
    expect(storedControls(null).channels).toEqual({
      online: true,
      contactless: true,
      chip: true,
      magstripe: false,
      atm: true,
    })
  })
})

describe('keptControls: a set as it is kept, or every fault', () => {
  it('keeps lists without repeats, merchants normalised, amounts in the account’s decimals', () => {
    const kept = keptControls(
      controls({
        blocked_categories: ['gambling', 'gambling', 'crypto'],
        blocked_countries: ['RU', 'RU'],
        allowed_countries: ['DE', 'PT'],
        blocked_merchants: [' Streaming Plus ', 'STREAMING PLUS', 'Bet\u200bHouse'],
        category_limits: [{ category: 'travel', interval: 'day', amount: '200.5' }],
      }),
      2,
      known,
    )
    expect(kept).toEqual({
      ok: true,
      controls: controls({
        blocked_categories: ['gambling', 'crypto'],
        blocked_countries: ['RU'],
        allowed_countries: ['DE', 'PT'],
        blocked_merchants: ['Streaming Plus', 'BetHouse'],
        category_limits: [{ category: 'travel', interval: 'day', amount: '200.50' }],
      }),
    })
  })

  it.each<[string, Partial<CardControls>, { field: string; message: string }[]]>([
    [
      'an unknown country',
      { blocked_countries: ['PT', 'XX'] },
      [{ field: '/body/blocked_countries/1', message: 'XX is not a known country.' }],
    ],
    [
      'an unknown allowed country',
      { allowed_countries: ['ZZ'] },
      [{ field: '/body/allowed_countries/0', message: 'ZZ is not a known country.' }],
    ],
    [
      'a blank merchant',
      { blocked_merchants: ['\u200b '] },
      [{ field: '/body/blocked_merchants/0', message: 'Give the merchant’s name.' }],
    ],
    [
      'two limits of one category and interval',
      {
        category_limits: [
          { category: 'travel', interval: 'day', amount: '1.00' },
          { category: 'travel', interval: 'day', amount: '2.00' },
        ],
      },
      [
        {
          field: '/body/category_limits/1',
          message: 'travel has a day limit already: one per category and interval.',
        },
      ],
    ],
    [
      'a zero limit',
      { category_limits: [{ category: 'cash', interval: 'month', amount: '0' }] },
      [{ field: '/body/category_limits/0/amount', message: 'Must be more than 0.' }],
    ],
    [
      'more decimals than the account’s currency',
      { category_limits: [{ category: 'cash', interval: 'month', amount: '1.001' }] },
      [{ field: '/body/category_limits/0/amount', message: 'At most 2 decimal places.' }],
    ],
  ])('refuses %s', (_, over, faults) => {
    expect(keptControls(controls(over), 2, known)).toEqual({ ok: false, faults })
  })
})

describe('loosens: the second look’s question', () => {
  const strict = controls({
    channels: channels({ online: false }),
    blocked_categories: ['gambling', 'crypto'],
    blocked_countries: ['RU'],
    allowed_countries: ['DE', 'PT'],
    blocked_merchants: ['Streaming Plus'],
    category_limits: [{ category: 'travel', interval: 'day', amount: '200.00' }],
  })
  it.each<[string, CardControls, boolean]>([
    ['the same set', strict, false],
    ['online turned on', { ...strict, channels: channels({ online: true }) }, true],
    [
      'the magnetic stripe turned on',
      { ...strict, channels: channels({ online: false, magstripe: true }) },
      true,
    ],
    [
      'contactless turned off',
      { ...strict, channels: channels({ online: false, contactless: false }) },
      false,
    ],
    ['a category unblocked', { ...strict, blocked_categories: ['gambling'] }, true],
    [
      'a category blocked too',
      { ...strict, blocked_categories: ['gambling', 'crypto', 'adult'] },
      false,
    ],
    ['a country unblocked', { ...strict, blocked_countries: [] }, true],
    ['a country blocked too', { ...strict, blocked_countries: ['RU', 'US'] }, false],
    ['the allowed list gone', { ...strict, allowed_countries: null }, true],
    ['a country allowed too', { ...strict, allowed_countries: ['DE', 'PT', 'FR'] }, true],
    ['a country no longer allowed', { ...strict, allowed_countries: ['DE'] }, false],
    ['a merchant unblocked', { ...strict, blocked_merchants: [] }, true],
    ['the merchant spelt otherwise', { ...strict, blocked_merchants: ['streaming  PLUS'] }, false],
    [
      'a category limit raised',
      { ...strict, category_limits: [{ category: 'travel', interval: 'day', amount: '200.01' }] },
      true,
    ],
    [
      'a category limit lowered',
      { ...strict, category_limits: [{ category: 'travel', interval: 'day', amount: '100.00' }] },
      false,
    ],
    ['a category limit removed', { ...strict, category_limits: [] }, true],
    [
      'a category limit added',
      {
        ...strict,
        category_limits: [
          ...strict.category_limits,
          { category: 'cash', interval: 'month', amount: '50.00' },
        ],
      },
      false,
    ],
  ])('%s: %s', (_, next, expected) => {
    expect(loosens(strict, next, 2)).toBe(expected)
  })

  it('limiting where the defaults allowed everything never loosens', () => {
    expect(loosens(defaultControls(), strict, 2)).toBe(false)
  })
  it('allowing only some countries where all were allowed never loosens', () => {
    expect(loosens(defaultControls(), controls({ allowed_countries: ['DE'] }), 2)).toBe(false)
  })
})
