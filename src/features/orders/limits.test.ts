import { describe, expect, it } from 'vitest'
import { maxPayable, shownBound } from './limits.ts'

const USDT = { decimals: 6, fiat: false }
const BTC = { decimals: 8, fiat: false }
const EUR = { decimals: 2, fiat: true }
const JPY = { decimals: 0, fiat: true }

describe('an amount’s bound as the exchange form shows it', () => {
  it.each([
    ['5.000836', USDT, 'min', '5.01'],
    ['100016.702789', USDT, 'max', '100016.70'],
    ['5.000000', USDT, 'min', '5.00'],
    ['0.00005092', BTC, 'min', '0.000051'],
    ['0.00005092', BTC, 'max', '0.000050'],
    ['1.01717001', BTC, 'max', '1.01'],
    ['1.00000001', BTC, 'min', '1.01'],
    ['50000.00', EUR, 'max', '50000.00'],
    ['1.00', EUR, 'min', '1.00'],
    ['150', JPY, 'min', '150'],
    ['0', USDT, 'min', '0'],
  ] as const)('%s (%o), the %s, reads %s', (amount, currency, way, shown) => {
    expect(shownBound(amount, currency, way)).toBe(shown)
  })
})

describe('the most a wallet pays for, fees on top (“Max”)', () => {
  const exchange = { fixed: '1', percent: '0.5', network: null }
  it.each([
    ['500', exchange, 6, '100000', '496.517411'],
    ['500', { fixed: '0', percent: '0', network: null }, 6, '100000', '500.000000'],
    ['0.01', { fixed: '0', percent: '0', network: '0.0001' }, 8, '2', '0.00990000'],
    ['300000', { fixed: '0', percent: '0', network: null }, 6, '100000', '100000.000000'],
    ['1', exchange, 6, '100000', undefined],
    ['0', exchange, 6, '100000', undefined],
  ] as const)(
    'of %s with fees %o (%i places, at most %s): %s',
    (available, fees, places, max, most) => {
      expect(maxPayable(available, fees, places, max)).toBe(most)
    },
  )

  it('leaves a total, fee rounded up, that the wallet covers', () => {
    const most = maxPayable('500', exchange, 6, '100000')!
    const units = BigInt(most.replace('.', ''))
    const fee = (units * 5n + 999n) / 1000n + 1_000_000n
    expect(units + fee <= 500_000_000n).toBe(true)
  })
})
