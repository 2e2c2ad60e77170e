import { describe, expect, it } from 'vitest'
import type { Language } from './i18n.tsx'
import {
  exactAmount,
  formatFigure,
  formatMoney,
  formatRate,
  isFiat,
  isShortened,
  type Money,
  type MoneyOptions,
} from './money.ts'

/** Intl's and our spaces, visible in the table: ␣ is U+00A0 (no-break), − is U+2212. */
const nb = (text: string) => text.replaceAll('␣', '\u00a0')

const eur = (amount: string): Money => ({ amount, currency: 'EUR', chain: null })
const eth = (amount: string): Money => ({ amount, currency: 'ETH', chain: 'ethereum' })
const btc = (amount: string): Money => ({ amount, currency: 'BTC', chain: 'bitcoin' })
const usdt = (amount: string): Money => ({ amount, currency: 'USDT', chain: 'tron' })

describe('formatMoney', () => {
  it.each<[string, Language, Money, MoneyOptions, string]>([
    // Fiat: Intl's currency style in the app's language.
    ['fiat en', 'en', eur('1234.50'), {}, '€1,234.50'],
    ['fiat ru', 'ru', eur('1234.50'), {}, '1␣234,50␣€'],
    ['fiat ru, dollars', 'ru', { amount: '0.05', currency: 'USD', chain: null }, {}, '0,05␣$'],
    ['fiat ru, pounds', 'ru', { amount: '1234567.89', currency: 'GBP' }, {}, '1␣234␣567,89␣£'],
    ['fiat at its minor unit', 'en', eur('12.345'), {}, '€12.35'],
    ['fiat exactly, on a tap', 'en', eur('12.345'), { exact: true }, '€12.345'],
    ['fiat exactly, short', 'en', eur('12.5'), { exact: true }, '€12.50'],
    ['yen has no minor unit', 'en', { amount: '1234', currency: 'JPY' }, { exact: true }, '¥1,234'],
    ['fiat out', 'en', eur('12.50'), { sign: 'out' }, '−€12.50'],
    ['fiat in', 'ru', eur('12.50'), { sign: 'in' }, '+12,50␣€'],
    ['fiat negative, no sign asked', 'en', eur('-0.10'), {}, '−€0.10'],
    ['zero has no sign', 'en', eur('0.00'), { sign: 'in' }, '€0.00'],
    [
      'fiat, huge',
      'en',
      eur('123456789012345678901234567890.12'),
      {},
      '€123,456,789,012,345,678,901,234,567,890.12',
    ],
    // Crypto: the currency's digits, trailing zeros trimmed, at most 8 significant fraction digits.
    ['crypto en', 'en', btc('0.00101885'), {}, '0.00101885␣BTC'],
    ['crypto ru', 'ru', btc('0.00101885'), {}, '0,00101885␣BTC'],
    ['trailing zeros trimmed', 'en', eth('1.500000000000000000'), {}, '1.5␣ETH'],
    ['a whole amount', 'en', usdt('1250.000000'), {}, '1,250␣USDT'],
    ['a whole amount, ru', 'ru', usdt('1250.000000'), {}, '1␣250␣USDT'],
    ['18 decimals, cut to 8', 'en', eth('1.123456789012345678'), {}, '1.12345678␣ETH'],
    ['cut, never rounded up', 'en', eth('0.999999999999999999'), {}, '0.99999999␣ETH'],
    ['the smallest wei', 'en', eth('0.000000000000000001'), {}, '0.000000000000000001␣ETH'],
    ['tiny: 8 digits after the zeros', 'en', eth('0.000012345678912345'), {}, '0.000012345678␣ETH'],
    [
      'huge',
      'en',
      eth('123456789012345678901234567890.123456789012345678'),
      {},
      '123,456,789,012,345,678,901,234,567,890.12345678␣ETH',
    ],
    [
      'exactly, on a tap',
      'en',
      eth('1.123456789012345678'),
      { exact: true },
      '1.123456789012345678␣ETH',
    ],
    ['crypto out', 'en', usdt('100.000000'), { sign: 'out' }, '−100␣USDT'],
    ['crypto in', 'en', btc('0.00101885'), { sign: 'in' }, '+0.00101885␣BTC'],
    ['crypto negative', 'ru', usdt('-0.100000'), {}, '−0,1␣USDT'],
    ['crypto zero', 'en', btc('0.00000000'), { sign: 'out' }, '0␣BTC'],
    // Without a chain, ISO 4217 decides.
    ['a code Intl knows is fiat', 'en', { amount: '5', currency: 'USD' }, {}, '$5.00'],
    ['a code it does not is crypto', 'en', { amount: '5.10', currency: 'SOL' }, {}, '5.1␣SOL'],
  ])('%s: %s %j %j → %s', (_, language, money, options, expected) => {
    expect(formatMoney(language, money, options)).toBe(nb(expected))
  })

  it('never reads an amount through a float', () => {
    // 2^53 + 1 and a fraction no double holds: both survive to the screen.
    expect(formatMoney('en', usdt('9007199254740993.000001'))).toBe(
      nb('9,007,199,254,740,993.000001␣USDT'),
    )
    expect(formatMoney('en', eur('9007199254740993.01'))).toBe('€9,007,199,254,740,993.01')
  })

  it('refuses what is not a decimal amount', () => {
    for (const amount of ['', 'abc', '1e5', '1,5', '0x10', 'NaN']) {
      expect(() => formatMoney('en', eur(amount)), amount).toThrow(RangeError)
    }
  })
})

describe('the exact value', () => {
  it.each([
    ['1.500000', '1.5'],
    ['100.000000', '100'],
    ['0.000000000000000001', '0.000000000000000001'],
    ['-0.10', '-0.1'],
    ['-0.00', '0'],
    ['007.50', '7.5'],
  ])('exactAmount(%s) is %s: what another app reads back as the same number', (amount, exact) => {
    expect(exactAmount({ amount })).toBe(exact)
  })

  it('tells when the screen shows less than the amount has', () => {
    expect(isShortened(eth('1.123456789012345678'))).toBe(true)
    expect(isShortened(eth('1.120000000000000000'))).toBe(false)
    expect(isShortened(btc('0.00101885'))).toBe(false)
    expect(isShortened(eur('12.345'))).toBe(false)
  })

  it('knows fiat by its chain, else by ISO 4217', () => {
    expect(isFiat({ currency: 'EUR', chain: null })).toBe(true)
    expect(isFiat({ currency: 'USDT', chain: 'tron' })).toBe(false)
    expect(isFiat({ currency: 'GBP' })).toBe(true)
    expect(isFiat({ currency: 'BTC' })).toBe(false)
  })
})

describe('formatRate', () => {
  it.each<[string, Language, { from: string; to: string; rate: string }, string]>([
    [
      'stronger first, as quoted',
      'en',
      { from: 'BTC', to: 'USDT', rate: '98150.12' },
      '1␣BTC = 98,150.12␣USDT',
    ],
    [
      '8 significant digits',
      'en',
      { from: 'BTC', to: 'USDT', rate: '98150.1234567' },
      '1␣BTC = 98,150.123␣USDT',
    ],
    [
      'turned round: USDT → BTC',
      'en',
      { from: 'USDT', to: 'BTC', rate: '0.00001018854339' },
      '1␣BTC = 98,149.457␣USDT',
    ],
    [
      'in Russian',
      'ru',
      { from: 'USDT', to: 'BTC', rate: '0.00001018854339' },
      '1␣BTC = 98␣149,457␣USDT',
    ],
    [
      'fiat both ways, this way',
      'en',
      { from: 'EUR', to: 'USD', rate: '1.0842' },
      '1␣EUR = 1.0842␣USD',
    ],
    [
      'fiat both ways, that way',
      'en',
      { from: 'USD', to: 'EUR', rate: '0.9223' },
      '1␣EUR = 1.0842459␣USD',
    ],
    [
      'trailing zeros trimmed',
      'en',
      { from: 'EUR', to: 'USD', rate: '1.0800000000' },
      '1␣EUR = 1.08␣USD',
    ],
    [
      'an even rate keeps the order',
      'en',
      { from: 'USDT', to: 'USDC', rate: '1.00' },
      '1␣USDT = 1␣USDC',
    ],
    ['rounding carries', 'en', { from: 'A', to: 'B', rate: '9.999999999' }, '1␣A = 10␣B'],
    [
      'a large figure',
      'en',
      { from: 'BTC', to: 'SAT', rate: '123456789012' },
      '1␣BTC = 123,456,790,000␣SAT',
    ],
    [
      'a tiny one, turned',
      'en',
      { from: 'SHIB', to: 'USD', rate: '0.000012345678' },
      '1␣USD = 81,000.007␣SHIB',
    ],
  ])('%s', (_, language, rate, expected) => {
    expect(formatRate(language, rate)).toBe(nb(expected))
  })

  it('refuses a rate that is not positive', () => {
    for (const rate of ['0', '0.000', '-1', 'x']) {
      expect(() => formatRate('en', { from: 'A', to: 'B', rate }), rate).toThrow(RangeError)
    }
  })
})

describe('right to left (issue 34)', () => {
  /** ⟨ is LRI (U+2066) and ⟩ PDI (U+2069): the left-to-right island an amount is in ar and fa. */
  const island = (text: string) =>
    nb(text).replaceAll('⟨', '\u2066').replaceAll('⟩', '\u2069').replaceAll('‹rlm›', '\u200f')

  it.each<[string, () => string, string]>([
    ['crypto in Arabic', () => formatMoney('ar', usdt('0.0123')), '⟨0.0123␣USDT⟩'],
    ['signed crypto in Arabic', () => formatMoney('ar', btc('1.5'), { sign: 'in' }), '⟨+1.5␣BTC⟩'],
    [
      'fiat in Arabic, with Intl’s own mark',
      () => formatMoney('ar', eur('12.5')),
      '⟨‹rlm›12.50␣€⟩',
    ],
    [
      'crypto in Persian: the fraction in its digits too',
      () => formatMoney('fa', usdt('0.0123')),
      '⟨۰٫۰۱۲۳␣USDT⟩',
    ],
    [
      'a rate in Persian, its one as well',
      () => formatRate('fa', { from: 'BTC', to: 'USDT', rate: '98000.5' }),
      '⟨۱␣BTC = ۹۸٬۰۰۰٫۵␣USDT⟩',
    ],
    ['a figure in Arabic', () => formatFigure('ar', '0.5'), '⟨0.5⟩'],
    ['none left to right', () => formatMoney('en', usdt('0.0123')), '0.0123␣USDT'],
    ['none in Russian', () => formatFigure('ru', '0.5'), '0,5'],
  ])('%s', (_, format, expected) => {
    expect(format()).toBe(island(expected))
  })
})
