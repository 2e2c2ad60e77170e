import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { toMinor } from '../../../contract/money.ts'
import { ORDER_TYPES } from '../../../contract/orders.ts'
import {
  amountLimits,
  convert,
  convertBack,
  exchangeRate,
  FEE_SCHEDULE,
  feeRule,
  fraction,
  networkFeeMinor,
  normalizePercent,
  PAR,
  type PricedCurrency,
  percentFee,
  spreadPercent,
} from './pricing.ts'
import { BTC, ETH, EUR, GBP, USD, USDC_ETH, USDT_ETH, USDT_TRON } from './pricing-fixtures.ts'

describe('exact decimals', () => {
  it('reads plain non-negative decimals exactly and refuses anything else', () => {
    expect(fraction('0.0004')).toEqual({ num: 4n, den: 10_000n })
    expect(fraction('97342.18')).toEqual({ num: 9_734_218n, den: 100n })
    expect(fraction('15')).toEqual({ num: 15n, den: 1n })
    for (const bad of ['', '-1', '1e5', '.5', '5.', ' 1', '0x10', 'NaN']) {
      expect(() => fraction(bad), bad).toThrow(RangeError)
    }
  })

  it('writes a percentage as people do', () => {
    expect(normalizePercent('1.000')).toBe('1')
    expect(normalizePercent('0.500')).toBe('0.5')
    expect(normalizePercent('0.000')).toBe('0')
    expect(normalizePercent('10')).toBe('10')
    expect(normalizePercent('10.0')).toBe('10')
    expect(normalizePercent('0.125')).toBe('0.125')
  })
})

describe('fees', () => {
  it('rounds a percentage fee up to a whole minor unit, never down to nothing', () => {
    const cases: [bigint, string, bigint][] = [
      [1000n, '0.1', 1n],
      [1001n, '0.1', 2n],
      [1n, '0.1', 1n],
      [0n, '0.1', 0n],
      [12_345n, '1', 124n],
      [12_300n, '1', 123n],
      [5_000_000n, '0', 0n],
      [99_999_999n, '0.125', 125_000n],
    ]
    for (const [amount, percent, fee] of cases) {
      expect(percentFee(amount, percent), `${percent} % of ${amount}`).toBe(fee)
    }
  })

  it('takes a card top-up percentage from the program, the rest from the schedule', () => {
    expect(feeRule('WITHDRAWAL_FIAT_SEPA')).toEqual({ fixed: '1.00', percent: '0' })
    expect(feeRule('EXCHANGE_CRYPTO_INTERNAL')).toEqual({ fixed: '0', percent: '0.1' })
    expect(feeRule('TRANSFER_CARD_PREPAID', '1.000')).toEqual({ fixed: '0', percent: '1' })
    expect(() => feeRule('TRANSFER_CARD_WHOLESALE')).toThrow('card program')
    // Only crypto withdrawals pay the chain.
    expect(ORDER_TYPES.filter((type) => FEE_SCHEDULE[type].networkFee)).toEqual([
      'WITHDRAWAL_CRYPTO',
    ])
  })

  it('converts a network fee into the withdrawn currency, rounding up', () => {
    // The native coin pays its own fee as it is.
    expect(networkFeeMinor('0.0004', null, 18)).toBe(400_000_000_000_000n)
    expect(networkFeeMinor('0.00002', null, 8)).toBe(2_000n)
    // 0.0012 ETH at 3412.56 USD in USDT at 1.00: exactly 4.095072 USDT.
    expect(networkFeeMinor('0.0012', { native: '3412.56', currency: '1.00' }, 6)).toBe(4_095_072n)
    // 0.0012 × 3412.567 = 4.0950804: up to 4.095081.
    expect(networkFeeMinor('0.0012', { native: '3412.567', currency: '1' }, 6)).toBe(4_095_081n)
    // 15 TRX at 0.2453 in USDC at 0.9999 = 3.679867986…: up to 3.679868.
    expect(networkFeeMinor('15', { native: '0.2453', currency: '0.9999' }, 6)).toBe(3_679_868n)
    expect(() => networkFeeMinor('1', { native: '1', currency: '0' }, 6)).toThrow('positive')
  })
})

describe('limits', () => {
  it('bounds fiat in its own units', () => {
    expect(amountLimits(EUR)).toEqual({ min: 100n, max: 5_000_000n })
    expect(amountLimits(GBP, '1.27')).toEqual({ min: 100n, max: 5_000_000n })
  })

  it('bounds a coin by its USD value: the minimum rounded up, the maximum down', () => {
    // 5 USD / 97342.18 = 0.0000513651… BTC; 100 000 USD = 1.027303886… BTC.
    expect(amountLimits(BTC, '97342.18')).toEqual({ min: 5_137n, max: 102_730_388n })
    expect(amountLimits(USDT_TRON, '1.00')).toEqual({ min: 5_000_000n, max: 100_000_000_000n })
    expect(() => amountLimits(BTC)).toThrow('price')
    expect(() => amountLimits(BTC, '0')).toThrow('positive')
  })
})

describe('rates', () => {
  it('takes the spread by what the two sides are', () => {
    const cases: [PricedCurrency, PricedCurrency, string][] = [
      [BTC, ETH, '0.5'],
      [BTC, EUR, '0.5'],
      [USDT_TRON, BTC, '0.5'],
      [USDT_TRON, EUR, '0.3'],
      [GBP, USDC_ETH, '0.3'],
      [EUR, USD, '0.3'],
      [USDT_TRON, USDC_ETH, '0.1'],
      [USDT_ETH, USDT_TRON, '0'],
    ]
    for (const [from, to, spread] of cases) {
      expect(spreadPercent(from, to), `${from.code}→${to.code}`).toBe(spread)
      expect(spreadPercent(to, from), `${to.code}→${from.code}`).toBe(spread)
    }
  })

  it('quotes the mid rate less the spread, to ten significant digits rounded down', () => {
    // 97342.18 × 0.995
    expect(exchangeRate('97342.18', '1.00', '0.5')).toBe('96855.4691')
    // 1.0834 × 0.997
    expect(exchangeRate('1.0834', '1', '0.3')).toBe('1.0801498')
    // TRX in BTC keeps its digits where a display rate (8 places) would keep three:
    // 0.000002507376555569… — down, never up to …556 in the customer's favour.
    expect(exchangeRate('0.2453', '97342.18', '0.5')).toBe('0.000002507376555')
    expect(exchangeRate('2', '3', '0')).toBe('0.6666666666')
    expect(exchangeRate('1', '1', '0')).toBe(PAR)
    expect(exchangeRate('3', '1', '0')).toBe('3.00')
    expect(() => exchangeRate('1', '0', '0.5')).toThrow('positive')
    expect(() => exchangeRate('0', '1', '0.5')).toThrow('positive')
    expect(() => exchangeRate('1', '1', '100')).toThrow('spread')
  })

  it('converts rounding down, and back rounding up to the least amount that gives enough', () => {
    const d = { from: 6, to: 8 }
    // 25 USDT at 0.00001027 BTC = 0.00025675 BTC exactly.
    expect(convert(25_000_000n, '0.00001027', d)).toBe(25_675n)
    // 1 micro-USDT short of a whole satoshi: down.
    expect(convert(97_370n, '0.00001027', d)).toBe(99n)
    expect(convertBack(25_675n, '0.00001027', d)).toBe(25_000_000n)
    expect(convertBack(100n, '0.00001027', d)).toBe(97_371n)
    expect(convert(97_371n, '0.00001027', d)).toBe(100n)
    expect(convert(12_345n, PAR, { from: 2, to: 2 })).toBe(12_345n)
    expect(() => convertBack(1n, '0', d)).toThrow('positive')
  })

  it('property: the target never gets less than asked, and the source pays the least for it', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 1n, max: 10n ** 24n }),
        fc.bigInt({ min: 1n, max: 10n ** 12n }),
        fc.integer({ min: 0, max: 12 }),
        fc.integer({ min: 0, max: 18 }),
        fc.integer({ min: 0, max: 18 }),
        (asked, rateDigits, ratePlaces, from, to) => {
          const digits = rateDigits.toString().padStart(ratePlaces + 1, '0')
          const rate = ratePlaces
            ? `${digits.slice(0, -ratePlaces)}.${digits.slice(-ratePlaces)}`
            : digits
          const decimals = { from, to }
          const pay = convertBack(asked, rate, decimals)
          expect(convert(pay, rate, decimals)).toBeGreaterThanOrEqual(asked)
          if (pay > 0n) expect(convert(pay - 1n, rate, decimals)).toBeLessThan(asked)
        },
      ),
    )
  })
})

it('every fixed fee fits the currencies its order type takes', () => {
  for (const type of ORDER_TYPES) {
    expect(() => toMinor(FEE_SCHEDULE[type].fixed, 2), type).not.toThrow()
  }
})
