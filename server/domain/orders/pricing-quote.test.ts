import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  AmountLimitError,
  amountLimits,
  convert,
  convertBack,
  feeRule,
  isExchangeable,
  isWholesaleSource,
  PAR,
  priceQuote,
  type QuotePricing,
} from './pricing.ts'
import { BTC, EUR, USD, USDC_ETH, USDT_ETH, USDT_TRON } from './pricing-fixtures.ts'

describe('a quote’s amounts', () => {
  const sepaWithdrawal = (amount: QuotePricing['amount']): QuotePricing => ({
    decimals: { from: 2, to: 2 },
    rate: PAR,
    amount,
    limits: amountLimits(EUR),
    fee: feeRule('WITHDRAWAL_FIAT_SEPA'),
    networkFeeMinor: 0n,
  })

  it('adds the fees on top of what is sent', () => {
    expect(priceQuote(sepaWithdrawal({ field: 'amount_from', minor: 10_000n }))).toEqual({
      fromMinor: 10_000n,
      toMinor: 10_000n,
      fees: [{ kind: 'FIXED', amountMinor: 100n, percent: null }],
      totalMinor: 10_100n,
    })
  })

  it('lists fixed, percentage and network fees in that order, leaving out the zero ones', () => {
    const priced = priceQuote({
      decimals: { from: 6, to: 6 },
      rate: PAR,
      amount: { field: 'amount_from', minor: 50_000_000n },
      limits: amountLimits(USDT_TRON, '1'),
      fee: { fixed: '0.5', percent: '0.1' },
      networkFeeMinor: 3_679_500n,
    })
    expect(priced.fees).toEqual([
      { kind: 'FIXED', amountMinor: 500_000n, percent: null },
      { kind: 'PERCENT', amountMinor: 50_000n, percent: '0.1' },
      { kind: 'NETWORK', amountMinor: 3_679_500n, percent: null },
    ])
    expect(priced.totalMinor).toBe(54_229_500n)
    const free = priceQuote({ ...sepaWithdrawal({ field: 'amount_from', minor: 100n }) })
    expect(free.fees.map((fee) => fee.kind)).toEqual(['FIXED'])
    const none = priceQuote({
      ...sepaWithdrawal({ field: 'amount_from', minor: 100n }),
      fee: feeRule('DEPOSIT_FIAT_SEPA'),
    })
    expect(none).toEqual({ fromMinor: 100n, toMinor: 100n, fees: [], totalMinor: 100n })
  })

  it('works out what to pay from what must arrive', () => {
    const priced = priceQuote({
      decimals: { from: 6, to: 8 },
      rate: '0.00001027',
      amount: { field: 'amount_to', minor: 100_000n },
      limits: amountLimits(USDT_TRON, '1'),
      fee: feeRule('EXCHANGE_CRYPTO_INTERNAL'),
      networkFeeMinor: 0n,
    })
    // 0.001 BTC / 0.00001027 = 97.370983… USDT, up to 97.370984.
    expect(priced.fromMinor).toBe(97_370_984n)
    expect(priced.toMinor).toBe(100_000n)
    expect(priced.fees).toEqual([{ kind: 'PERCENT', amountMinor: 97_371n, percent: '0.1' }])
    expect(priced.totalMinor).toBe(97_468_355n)
  })

  it('refuses an amount outside the limits, naming the amount given', () => {
    const cases: [QuotePricing['amount'], string, bigint][] = [
      [{ field: 'amount_from', minor: 99n }, 'AMOUNT_TOO_SMALL', 100n],
      [{ field: 'amount_from', minor: 0n }, 'AMOUNT_TOO_SMALL', 100n],
      [{ field: 'amount_to', minor: 99n }, 'AMOUNT_TOO_SMALL', 100n],
      [{ field: 'amount_from', minor: 5_000_001n }, 'AMOUNT_TOO_LARGE', 5_000_000n],
      [{ field: 'amount_to', minor: 5_000_001n }, 'AMOUNT_TOO_LARGE', 5_000_000n],
    ]
    for (const [amount, code, limit] of cases) {
      const error = (() => {
        try {
          priceQuote(sepaWithdrawal(amount))
        } catch (thrown) {
          return thrown
        }
      })()
      expect(error).toBeInstanceOf(AmountLimitError)
      expect(error).toMatchObject({
        failure: { kind: code, field: amount.field, limitMinor: limit },
      })
    }
    expect(priceQuote(sepaWithdrawal({ field: 'amount_from', minor: 100n })).fromMinor).toBe(100n)
    expect(priceQuote(sepaWithdrawal({ field: 'amount_to', minor: 5_000_000n })).fromMinor).toBe(
      5_000_000n,
    )
  })

  it('refuses an amount that converts to nothing', () => {
    expect(() =>
      priceQuote({
        decimals: { from: 6, to: 2 },
        rate: '0.92',
        amount: { field: 'amount_from', minor: 5n },
        limits: { min: 1n, max: 100n },
        fee: { fixed: '0', percent: '0' },
        networkFeeMinor: 0n,
      }),
    ).toThrow(AmountLimitError)
  })

  it('property: to = from × rate rounded down, total = from + fees, fees never negative', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 1n, max: 10n ** 15n }),
        fc.constantFrom('0.92', '1.0801498', '96855.4691', '0.000002507376556', PAR),
        fc.constantFrom('0', '0.1', '1', '0.125'),
        fc.bigInt({ min: 0n, max: 10n ** 6n }),
        fc.boolean(),
        (minor, rate, percent, network, giveTo) => {
          const decimals = { from: 6, to: 8 }
          const input: QuotePricing = {
            decimals,
            rate,
            amount: { field: giveTo ? 'amount_to' : 'amount_from', minor },
            limits: { min: 1n, max: 10n ** 30n },
            fee: { fixed: '0', percent },
            networkFeeMinor: network,
          }
          let priced: ReturnType<typeof priceQuote>
          try {
            priced = priceQuote(input)
          } catch (error) {
            // Only a target amount of nothing is refused with these limits.
            expect(error).toBeInstanceOf(AmountLimitError)
            expect(
              convert(giveTo ? convertBack(minor, rate, decimals) : minor, rate, decimals),
            ).toBe(0n)
            return
          }
          expect(priced.toMinor).toBe(convert(priced.fromMinor, rate, decimals))
          if (giveTo) expect(priced.toMinor).toBeGreaterThanOrEqual(minor)
          else expect(priced.fromMinor).toBe(minor)
          expect(priced.fees.every((fee) => fee.amountMinor > 0n)).toBe(true)
          const sum = priced.fees.reduce((total, fee) => total + fee.amountMinor, 0n)
          expect(priced.totalMinor).toBe(priced.fromMinor + sum)
        },
      ),
    )
  })
})

describe('what each order type takes', () => {
  it('exchanges between different codes only: the same coin on two chains is a bridge', () => {
    expect(isExchangeable(USDT_TRON, BTC)).toBe(true)
    expect(isExchangeable(EUR, USD)).toBe(true)
    expect(isExchangeable(USDT_TRON, USDT_ETH)).toBe(false)
    expect(isExchangeable(BTC, BTC)).toBe(false)
  })

  it('pays a wholesale card transfer in stablecoin tokens only', () => {
    expect([USDT_TRON, USDC_ETH, BTC, EUR, USD].map(isWholesaleSource)).toEqual([
      true,
      true,
      false,
      false,
      false,
    ])
  })
})
