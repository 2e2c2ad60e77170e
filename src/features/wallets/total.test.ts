import { describe, expect, it } from 'vitest'
import { aBalance, aWallet } from '../../../tests/support/builders.ts'
import { currencyForLocales } from '../../queries/display-currency.ts'
import { totalBalance } from './total.ts'

const rates = (entries: Record<string, string>) =>
  Object.entries(entries).map(([code, rate]) => ({ code, rate }))

describe('the total balance', () => {
  it('sums available balances × rates exactly and rounds once, half-even', () => {
    const wallets = [
      aWallet({
        balances: [
          aBalance({ currency: 'BTC', available: '0.5', pending: '1' }),
          aBalance({ currency: 'ETH', available: '0.000000000000000001' }),
        ],
      }),
      aWallet({
        uuid: 'second',
        balances: [
          aBalance({ currency: 'USDT', chain: 'tron', available: '0.1' }),
          aBalance({ currency: 'USDT', chain: 'ethereum', available: '0.2' }),
          aBalance({ currency: 'EUR', chain: null, available: '10.00' }),
        ],
      }),
    ]
    // 0.5 × 97342.18 + 1e-18 × 3412.56 + 0.3 × 1.0001 + 10 × 1.0834
    //   = 48671.09 + 0.00000000000000341256 + 0.30003 + 10.834 = 48682.22403… → 48682.22
    expect(
      totalBalance(
        wallets,
        rates({ BTC: '97342.18', ETH: '3412.56', USDT: '1.0001', EUR: '1.0834' }),
      ),
    ).toEqual({ amount: '48682.22', unpriced: [] })
  })

  it.each([
    // Where floats go wrong: 0.1 + 0.2, and a tie at the cent.
    [['0.1', '0.2'], '1', '0.30'],
    [['0.005'], '1', '0.00'],
    [['0.015'], '1', '0.02'],
    [['0.0049', '0.0001'], '1', '0.00'],
    [['0.0049', '0.0002'], '1', '0.01'],
    [['12345678901234.123456'], '0.92302012', '11395310020898.59'],
    [[], '1', '0.00'],
  ])('%j at %s makes %s', (amounts, rate, expected) => {
    const wallet = aWallet({
      balances: amounts.map((available) => aBalance({ currency: 'USDC', available })),
    })
    expect(totalBalance([wallet], rates({ USDC: rate })).amount).toBe(expected)
  })

  it('leaves out currencies without a rate and names each once; zero balances need none', () => {
    const wallet = aWallet({
      balances: [
        aBalance({ currency: 'DOGE', available: '5' }),
        aBalance({ currency: 'BTC', available: '1' }),
        aBalance({ currency: 'XRP', available: '0' }),
        aBalance({ currency: 'DOGE', chain: 'solana', available: '1' }),
      ],
    })
    expect(totalBalance([wallet], rates({ BTC: '2.50' }))).toEqual({
      amount: '2.50',
      unpriced: ['DOGE'],
    })
  })
})

describe('the display currency by default', () => {
  it.each([
    [['de-DE'], 'EUR'],
    [['de'], 'EUR'],
    [['fr-BE', 'en'], 'EUR'],
    [['hr'], 'EUR'],
    [['en-GB'], 'GBP'],
    [['en-US'], 'USD'],
    [['en'], 'USD'],
    [['ru-RU'], 'USD'],
    [['de-CH'], 'USD'],
    [[], 'USD'],
    [['not a locale!'], 'USD'],
  ])('%j → %s', (locales, expected) => {
    expect(currencyForLocales(locales)).toBe(expected)
  })
})
