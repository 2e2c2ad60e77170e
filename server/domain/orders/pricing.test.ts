import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { toMinor } from '../../../contract/money.ts'
import { ORDER_TYPES } from '../../../contract/orders.ts'
import { exchangeDirections } from './direction-rules.ts'
import {
  AmountLimitError,
  amountLimits,
  convert,
  convertBack,
  exchangeRate,
  FEE_SCHEDULE,
  feeRule,
  fraction,
  isExchangeable,
  isWholesaleSource,
  networkFeeMinor,
  normalizePercent,
  PAR,
  type PricedCurrency,
  percentFee,
  priceQuote,
  type QuotePricing,
  spreadPercent,
} from './pricing.ts'

const currency = (
  code: string,
  type: PricedCurrency['type'],
  decimals: number,
  chain: PricedCurrency['chain'] = null,
): PricedCurrency => ({ uuid: `${code}-${chain ?? 'fiat'}`, code, type, decimals, chain })

const BTC = currency('BTC', 'native', 8, 'bitcoin')
const ETH = currency('ETH', 'native', 18, 'ethereum')
const TRX = currency('TRX', 'native', 6, 'tron')
const USDT_ETH = currency('USDT', 'token', 6, 'ethereum')
const USDT_TRON = currency('USDT', 'token', 6, 'tron')
const USDC_ETH = currency('USDC', 'token', 6, 'ethereum')
const EUR = currency('EUR', 'fiat', 2)
const USD = currency('USD', 'fiat', 2)
const GBP = currency('GBP', 'fiat', 2)

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

describe('the directions list', () => {
  const catalogue = [BTC, TRX, USDT_TRON, USDC_ETH, EUR, USD, GBP]
  const prices = new Map([
    ['BTC', '97342.18'],
    ['TRX', '0.2453'],
    ['USDT', '1.00'],
    ['USDC', '0.9999'],
    ['EUR', '1.0834'],
    ['USD', '1.00'],
    ['GBP', '1.2719'],
  ])
  const networkFees = new Map([
    [BTC.uuid, 2_000n],
    [TRX.uuid, 1_000_000n],
    [USDT_TRON.uuid, 3_679_500n],
    [USDC_ETH.uuid, 4_095_072n],
  ])
  const asOf = new Date('2026-01-01T12:00:00Z')
  const programs = [
    { currency_uuid: EUR.uuid, sub_account_type: 'prepaid' as const, fee_top_up_percent: '1.000' },
    { currency_uuid: EUR.uuid, sub_account_type: 'prepaid' as const, fee_top_up_percent: '0.500' },
    { currency_uuid: EUR.uuid, sub_account_type: 'balance' as const, fee_top_up_percent: '0.000' },
    { currency_uuid: USD.uuid, sub_account_type: 'balance' as const, fee_top_up_percent: '0.250' },
  ]
  const all = exchangeDirections({ currencies: catalogue, prices, programs, networkFees, asOf })
  const pairs = (type: string) =>
    all
      .filter((d) => d.order_type === type)
      .map((d) => `${d.from.currency}${d.from.chain ? `/${d.from.chain}` : ''}→${d.to.currency}`)

  it('lists the order types in their order, each as of the rates', () => {
    const types = all.map((d) => d.order_type)
    expect([...new Set(types)]).toEqual(ORDER_TYPES.filter((type) => types.includes(type)))
    expect(new Set(all.map((d) => d.as_of))).toEqual(new Set([asOf.toISOString()]))
  })

  it('offers the bank rails in their currencies', () => {
    expect(pairs('DEPOSIT_FIAT_SEPA')).toEqual(['EUR→EUR'])
    expect(pairs('DEPOSIT_FIAT_SWIFT')).toEqual(['EUR→EUR', 'USD→USD', 'GBP→GBP'])
    expect(pairs('WITHDRAWAL_FIAT_SEPA')).toEqual(['EUR→EUR'])
    const swift = all.find((d) => d.order_type === 'DEPOSIT_FIAT_SWIFT')!
    expect(swift).toMatchObject({
      rate: PAR,
      min_amount: '1.00',
      max_amount: '50000.00',
      fee_fixed: '10.00',
      fee_percent: '0',
      network_fee: null,
    })
  })

  it('offers a crypto withdrawal of every coin and token, with its network fee', () => {
    expect(pairs('WITHDRAWAL_CRYPTO')).toEqual([
      'BTC/bitcoin→BTC',
      'TRX/tron→TRX',
      'USDT/tron→USDT',
      'USDC/ethereum→USDC',
    ])
    const usdt = all.find(
      (d) => d.order_type === 'WITHDRAWAL_CRYPTO' && d.from.currency_uuid === USDT_TRON.uuid,
    )!
    expect(usdt).toMatchObject({
      rate: PAR,
      min_amount: '5.000000',
      max_amount: '100000.000000',
      fee_fixed: '0.000000',
      network_fee: '3.679500',
    })
  })

  it('exchanges every pair of different codes, at the mid rate less the spread', () => {
    const exchanges = all.filter((d) => d.order_type === 'EXCHANGE_CRYPTO_INTERNAL')
    expect(exchanges).toHaveLength(7 * 6)
    const btcEur = exchanges.find((d) => d.from.currency === 'BTC' && d.to.currency === 'EUR')!
    expect(btcEur).toMatchObject({
      rate: exchangeRate('97342.18', '1.0834', '0.5'),
      min_amount: '0.00005137',
      fee_percent: '0.1',
      network_fee: null,
    })
    expect(exchanges.find((d) => d.from.currency === 'EUR' && d.to.currency === 'USD')!.rate).toBe(
      '1.0801498',
    )
  })

  it('tops cards up in the currencies of active programs, at the lowest program’s fee', () => {
    expect(pairs('TRANSFER_CARD_PREPAID')).toEqual(['EUR→EUR'])
    expect(pairs('TRANSFER_CARD_SUBACCOUNT')).toEqual(['EUR→EUR', 'USD→USD'])
    expect(all.find((d) => d.order_type === 'TRANSFER_CARD_PREPAID')!.fee_percent).toBe('0.5')
    expect(pairs('TRANSFER_CARD_WHOLESALE')).toEqual([
      'USDT/tron→EUR',
      'USDT/tron→USD',
      'USDC/ethereum→EUR',
      'USDC/ethereum→USD',
    ])
    const wholesale = all.find((d) => d.order_type === 'TRANSFER_CARD_WHOLESALE')!
    expect(wholesale).toMatchObject({
      rate: exchangeRate('1.00', '1.0834', '0.3'),
      fee_percent: '0',
      min_amount: '5.000000',
    })
  })

  it('leaves out what needs a price the provider did not give', () => {
    const withoutTrx = new Map([...prices].filter(([code]) => code !== 'TRX'))
    const list = exchangeDirections({
      currencies: catalogue,
      prices: withoutTrx,
      programs: [],
      networkFees: new Map([...networkFees].filter(([uuid]) => uuid !== TRX.uuid)),
      asOf,
    })
    expect(list.some((d) => d.from.currency === 'TRX' || d.to.currency === 'TRX')).toBe(false)
    expect(list.some((d) => d.order_type.startsWith('TRANSFER_CARD'))).toBe(false)
    expect(list.filter((d) => d.order_type === 'EXCHANGE_CRYPTO_INTERNAL')).toHaveLength(6 * 5)
  })
})

it('every fixed fee fits the currencies its order type takes', () => {
  for (const type of ORDER_TYPES) {
    expect(() => toMinor(FEE_SCHEDULE[type].fixed, 2), type).not.toThrow()
  }
})
