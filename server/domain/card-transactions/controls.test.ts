import { describe, expect, it } from 'vitest'
import { type CardControls, defaultControls } from '../../../contract/card-controls.ts'
import {
  type CategorySpent,
  type ControlledPayment,
  categoryWindows,
  controlDecline,
} from './controls.ts'

const controls = (over: Partial<CardControls> = {}): CardControls => ({
  ...defaultControls(),
  ...over,
})
const shop: ControlledPayment = {
  channel: 'chip',
  merchant: { name: 'Corner Shop', mcc: '5411', country: 'PT' },
  amount: 10_00n,
}
const pay = (over: Partial<ControlledPayment> = {}, merchant = {}): ControlledPayment => ({
  ...shop,
  ...over,
  merchant: { ...shop.merchant, ...merchant },
})
const nothingSpent: CategorySpent = { day: 0n, month: 0n }
const travelLimits = controls({
  category_limits: [
    { category: 'travel', interval: 'transaction', amount: '200.00' },
    { category: 'travel', interval: 'day', amount: '300.00' },
    { category: 'travel', interval: 'month', amount: '1000.00' },
  ],
})
const hotel = { name: 'Hotel Lisboa', mcc: '7011', country: 'PT' }

describe('controlDecline: the card network’s check of a card’s controls', () => {
  it.each<[string, CardControls, ControlledPayment, CategorySpent, unknown]>([
    ['the defaults take a chip payment', controls(), shop, nothingSpent, undefined],
    [
      'the defaults take online, contactless and ATM',
      controls(),
      pay({ channel: 'online' }),
      nothingSpent,
      undefined,
    ],
    [
      'the defaults refuse the magnetic stripe',
      controls(),
      pay({ channel: 'magstripe' }),
      nothingSpent,
      { reason: 'CHANNEL_BLOCKED', limit: null },
    ],
    [
      'online payments turned off',
      controls({ channels: { ...defaultControls().channels, online: false } }),
      pay({ channel: 'online' }),
      nothingSpent,
      { reason: 'CHANNEL_BLOCKED', limit: null },
    ],
    [
      'online off leaves chip alone',
      controls({ channels: { ...defaultControls().channels, online: false } }),
      shop,
      nothingSpent,
      undefined,
    ],
    [
      'a blocked country',
      controls({ blocked_countries: ['PT'] }),
      shop,
      nothingSpent,
      { reason: 'COUNTRY_BLOCKED', limit: null },
    ],
    [
      'a country outside the allowed ones',
      controls({ allowed_countries: ['DE', 'FR'] }),
      shop,
      nothingSpent,
      { reason: 'COUNTRY_BLOCKED', limit: null },
    ],
    [
      'a country among the allowed ones',
      controls({ allowed_countries: ['DE', 'PT'] }),
      shop,
      nothingSpent,
      undefined,
    ],
    [
      'a blocked merchant, whatever its case and spaces',
      controls({ blocked_merchants: ['Streaming Plus'] }),
      pay({}, { name: '  STREAMING   plus ' }),
      nothingSpent,
      { reason: 'MERCHANT_BLOCKED', limit: null },
    ],
    [
      'another merchant',
      controls({ blocked_merchants: ['Streaming Plus'] }),
      shop,
      nothingSpent,
      undefined,
    ],
    [
      'a blocked category (7995: betting)',
      controls({ blocked_categories: ['gambling'] }),
      pay({}, { mcc: '7995' }),
      nothingSpent,
      { reason: 'CATEGORY_BLOCKED', limit: null },
    ],
    [
      'cash blocks an ATM withdrawal by its code (6011)',
      controls({ blocked_categories: ['cash'] }),
      pay({ channel: 'atm' }, { mcc: '6011' }),
      nothingSpent,
      { reason: 'CATEGORY_BLOCKED', limit: null },
    ],
    [
      '"other" blocks a code no group holds',
      controls({ blocked_categories: ['other'] }),
      pay({}, { mcc: '0001' }),
      nothingSpent,
      { reason: 'CATEGORY_BLOCKED', limit: null },
    ],
    [
      'a category limit on one payment, reached exactly',
      travelLimits,
      pay({ amount: 200_00n }, hotel),
      nothingSpent,
      undefined,
    ],
    [
      'a category limit on one payment, passed',
      travelLimits,
      pay({ amount: 200_01n }, hotel),
      nothingSpent,
      { reason: 'CATEGORY_LIMIT_EXCEEDED', limit: 'per_transaction' },
    ],
    [
      'the day’s category limit',
      travelLimits,
      pay({ amount: 100_00n }, hotel),
      { day: 200_01n, month: 200_01n },
      { reason: 'CATEGORY_LIMIT_EXCEEDED', limit: 'daily' },
    ],
    [
      'the month’s category limit',
      travelLimits,
      pay({ amount: 100_00n }, hotel),
      { day: 0n, month: 900_01n },
      { reason: 'CATEGORY_LIMIT_EXCEEDED', limit: 'monthly' },
    ],
    [
      'a category limit leaves other categories alone',
      travelLimits,
      pay({ amount: 900_00n }),
      { day: 5_000_00n, month: 5_000_00n },
      undefined,
    ],
    [
      'the channel before the country, the country before the merchant, the merchant before the category',
      controls({
        channels: { ...defaultControls().channels, chip: false },
        blocked_countries: ['PT'],
        blocked_merchants: ['Corner Shop'],
        blocked_categories: ['groceries'],
      }),
      shop,
      nothingSpent,
      { reason: 'CHANNEL_BLOCKED', limit: null },
    ],
    [
      'the country before the merchant',
      controls({ blocked_countries: ['PT'], blocked_merchants: ['Corner Shop'] }),
      shop,
      nothingSpent,
      { reason: 'COUNTRY_BLOCKED', limit: null },
    ],
    [
      'the merchant before the category',
      controls({ blocked_merchants: ['Corner Shop'], blocked_categories: ['groceries'] }),
      shop,
      nothingSpent,
      { reason: 'MERCHANT_BLOCKED', limit: null },
    ],
  ])('%s', (_, set, payment, spent, expected) => {
    expect(controlDecline(set, payment, spent, 2)).toEqual(expected)
  })
})

describe('categoryWindows: the sums a category limit needs', () => {
  it.each<[string, CardControls, string, string[]]>([
    ['no limits: none', controls(), 'travel', []],
    ['a payment’s limit needs no sum', travelLimits, 'travel', ['day', 'month']],
    ['another category’s limits: none', travelLimits, 'groceries', []],
  ])('%s', (_, set, category, windows) => {
    expect(categoryWindows(set, category as 'travel')).toEqual(windows)
  })
})
