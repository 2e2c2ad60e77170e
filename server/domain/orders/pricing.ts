/**
 * Pricing, the pure part: which currencies each order type takes, the fee
 * schedule, the amount limits, the exchange spread, and the conversion math —
 * all on bigint minor units and exact decimal fractions, never a float.
 *
 * Rounding, always in the platform's favour and never by a fraction of a
 * minor unit: what the target receives rounds down, what the source must pay
 * for a requested target amount rounds up, fees round up.
 */
import type { ChainId, CurrencyType } from '../../../contract/catalog.ts'
import type { SubAccountType } from '../../../contract/fiat-accounts.ts'
import { toMinor } from '../../../contract/money.ts'
import type { FeeKind, OrderType } from '../../../contract/orders.ts'
import { ratio } from '../../providers/rates/rates.ts'
import { DomainError } from '../failure.ts'

/** A currency as pricing needs it (a catalogue row). */
export interface PricedCurrency {
  uuid: string
  code: string
  type: CurrencyType
  decimals: number
  chain: ChainId | null
}

// ---------------------------------------------------------------------------
// Exact decimals

/** num / den, both non-negative, den > 0: a decimal string held exactly. */
export interface Fraction {
  num: bigint
  den: bigint
}

const DECIMAL = /^(\d+)(?:\.(\d+))?$/

/** "0.0004" → 4/10000. Only plain non-negative decimals: rates, prices, percentages. */
export function fraction(text: string): Fraction {
  const match = DECIMAL.exec(text)
  if (!match) throw new RangeError(`"${text}" is not a non-negative decimal`)
  const [, whole, decimals = ''] = match
  return { num: BigInt(whole! + decimals), den: 10n ** BigInt(decimals.length) }
}

const ceilDiv = (numerator: bigint, denominator: bigint) =>
  (numerator + denominator - 1n) / denominator

const pow10 = (exponent: number) => 10n ** BigInt(exponent)

/** "1.000" → "1", "0.500" → "0.5": a percentage as people write it. */
export function normalizePercent(percent: string): string {
  fraction(percent)
  return percent.includes('.') ? percent.replace(/0+$/, '').replace(/\.$/, '') : percent
}

// ---------------------------------------------------------------------------
// What each order type takes

/** Stablecoins: priced near 1 USD, the only coins a wholesale card transfer takes. */
export const STABLECOINS: readonly string[] = ['USDT', 'USDC']

/** The fiat currencies of the bank rails (SEPA is euro only; SWIFT carries the three). */
export const BANK_RAIL_CURRENCIES: Partial<Record<OrderType, readonly string[]>> = {
  DEPOSIT_FIAT_SEPA: ['EUR'],
  DEPOSIT_FIAT_SWIFT: ['EUR', 'USD', 'GBP'],
  WITHDRAWAL_FIAT_SEPA: ['EUR'],
}

/** Which fiat accounts a card order type tops up. */
export const CARD_SUB_ACCOUNT_TYPES: Partial<Record<OrderType, readonly SubAccountType[]>> = {
  TRANSFER_CARD_PREPAID: ['prepaid'],
  TRANSFER_CARD_SUBACCOUNT: ['balance'],
  TRANSFER_CARD_WHOLESALE: ['prepaid', 'balance'],
}

/**
 * May an internal exchange convert `from` into `to`? Between any two
 * currencies of different codes. The same code on two chains (USDT on
 * Ethereum into USDT on Tron) is a bridge, not an exchange: the treasury
 * would owe coins on one chain and hold them on another, which only an
 * on-chain rebalancing settles — not offered.
 */
export const isExchangeable = (from: PricedCurrency, to: PricedCurrency) => from.code !== to.code

/** May a wholesale card transfer be paid in this currency? */
export const isWholesaleSource = (currency: PricedCurrency) =>
  currency.type === 'token' && STABLECOINS.includes(currency.code)

// ---------------------------------------------------------------------------
// Fee schedule

export interface FeeRule {
  /** Charged per order in the from currency's units. Only fiat-only order types have one. */
  fixed: string
  /** Percentage of from.amount ("0.1" = 0.1 %); null: the card program's top-up percentage. */
  percent: string | null
  /** A crypto withdrawal to an outside address pays the chain's fee on top. */
  networkFee: boolean
}

/**
 * Every fee is in the from currency, on top of from.amount (docs/api.md has
 * this table). An exchange's price is its spread (below) plus a small fee.
 */
export const FEE_SCHEDULE: Record<OrderType, FeeRule> = {
  DEPOSIT_FIAT_SEPA: { fixed: '0', percent: '0', networkFee: false },
  DEPOSIT_FIAT_SWIFT: { fixed: '10.00', percent: '0', networkFee: false },
  WITHDRAWAL_FIAT_SEPA: { fixed: '1.00', percent: '0', networkFee: false },
  TRANSFER_CARD_PREPAID: { fixed: '0', percent: null, networkFee: false },
  TRANSFER_CARD_SUBACCOUNT: { fixed: '0', percent: null, networkFee: false },
  WITHDRAWAL_CRYPTO: { fixed: '0', percent: '0', networkFee: true },
  EXCHANGE_CRYPTO_INTERNAL: { fixed: '0', percent: '0.1', networkFee: false },
  TRANSFER_CARD_WHOLESALE: { fixed: '0', percent: null, networkFee: false },
}

/** The schedule's fee for an order type, the card program's percentage filled in. */
export function feeRule(orderType: OrderType, programPercent?: string) {
  const rule = FEE_SCHEDULE[orderType]
  const percent = rule.percent ?? programPercent
  if (percent === undefined) throw new Error(`${orderType} is priced by its card program`)
  return { fixed: rule.fixed, percent: normalizePercent(percent) }
}

/** A percentage of an amount, rounded up to a whole minor unit. */
export function percentFee(amountMinor: bigint, percent: string): bigint {
  const p = fraction(percent)
  return ceilDiv(amountMinor * p.num, 100n * p.den)
}

/**
 * A network fee paid in the chain's native coin, in the withdrawn currency
 * rounded up to its decimals. `prices` are both in one base (USD); null when
 * the withdrawn currency is the native coin itself.
 */
export function networkFeeMinor(
  fee: string,
  prices: { native: string; currency: string } | null,
  decimals: number,
): bigint {
  const amount = fraction(fee)
  if (!prices) return ceilDiv(amount.num * pow10(decimals), amount.den)
  const native = fraction(prices.native)
  const currency = positive(fraction(prices.currency), 'price')
  return ceilDiv(
    amount.num * native.num * currency.den * pow10(decimals),
    amount.den * native.den * currency.num,
  )
}

// ---------------------------------------------------------------------------
// Limits

/** Bounds on from.amount of a fiat currency, in its own units (what banks think in). */
export const FIAT_LIMITS = { min: '1.00', max: '50000.00' } as const

/** Bounds on from.amount of a coin or token, as a USD value converted at the day's price. */
export const CRYPTO_LIMITS_USD = { min: '5', max: '100000' } as const

export interface AmountLimits {
  min: bigint
  max: bigint
}

/**
 * Bounds on from.amount in minor units. A coin's bounds move with its price:
 * the minimum rounds up, the maximum down, so both stay inside the USD bounds.
 * @param usdPrice units of USD per 1 unit of the currency; needed for a coin or token
 */
export function amountLimits(currency: PricedCurrency, usdPrice?: string): AmountLimits {
  if (currency.type === 'fiat') {
    return {
      min: toMinor(FIAT_LIMITS.min, currency.decimals),
      max: toMinor(FIAT_LIMITS.max, currency.decimals),
    }
  }
  if (usdPrice === undefined) throw new Error(`limits of ${currency.code} need its price`)
  const price = positive(fraction(usdPrice), 'price')
  const inUnits = (usd: string) => {
    const value = fraction(usd)
    return {
      num: value.num * price.den * pow10(currency.decimals),
      den: value.den * price.num,
    }
  }
  const min = inUnits(CRYPTO_LIMITS_USD.min)
  const max = inUnits(CRYPTO_LIMITS_USD.max)
  return { min: ceilDiv(min.num, min.den), max: max.num / max.den }
}

// ---------------------------------------------------------------------------
// Rates and conversion

/**
 * The spread taken off the mid rate of a conversion, by what the two sides
 * are: stablecoins move least, volatile coins most.
 */
export const SPREADS = {
  same: '0',
  stablecoinStablecoin: '0.1',
  /** fiat↔fiat and stablecoin↔fiat */
  fiatLike: '0.3',
  volatile: '0.5',
} as const

type PriceClass = 'fiat' | 'stablecoin' | 'volatile'

const priceClass = (currency: PricedCurrency): PriceClass =>
  currency.type === 'fiat'
    ? 'fiat'
    : STABLECOINS.includes(currency.code)
      ? 'stablecoin'
      : 'volatile'

export function spreadPercent(from: PricedCurrency, to: PricedCurrency): string {
  if (from.code === to.code) return SPREADS.same
  const classes = new Set([priceClass(from), priceClass(to)])
  if (classes.has('volatile')) return SPREADS.volatile
  if (classes.size === 1 && classes.has('stablecoin')) return SPREADS.stablecoinStablecoin
  return SPREADS.fiatLike
}

/** Significant digits a quoted rate keeps: TRX in BTC (0.0000025…) as exactly as BTC in TRX. */
export const RATE_SIGNIFICANT_DIGITS = 10

/** The rate when nothing is converted. */
export const PAR = '1.00'

/**
 * Units of `to` per 1 unit of `from`: the mid rate (the two prices in one
 * base) less the spread, rounded down to RATE_SIGNIFICANT_DIGITS (in the
 * platform's favour, like every rounding here).
 */
export function exchangeRate(priceFrom: string, priceTo: string, spread: string): string {
  const from = fraction(priceFrom)
  const to = positive(fraction(priceTo), 'price')
  const off = fraction(spread)
  const keep = 100n * off.den - off.num
  if (keep <= 0n) throw new RangeError('a spread must be below 100 %')
  const num = from.num * to.den * keep
  const den = from.den * to.num * 100n * off.den
  if (num === 0n) throw new RangeError('a price must be positive')
  return ratio(num, den, rateScale(num, den), 'down')
}

/** Decimal places that keep RATE_SIGNIFICANT_DIGITS of num / den (> 0), at least two. */
function rateScale(num: bigint, den: bigint): number {
  const whole = num / den
  if (whole > 0n) return Math.max(2, RATE_SIGNIFICANT_DIGITS - whole.toString().length)
  let zeros = 0
  for (let scaled = num * 10n; scaled < den; scaled *= 10n) zeros += 1
  return zeros + RATE_SIGNIFICANT_DIGITS
}

/** from × rate at the target's decimals, rounded down: what the target receives. */
export function convert(
  fromMinor: bigint,
  rate: string,
  decimals: { from: number; to: number },
): bigint {
  const r = fraction(rate)
  return (fromMinor * r.num * pow10(decimals.to)) / (r.den * pow10(decimals.from))
}

/**
 * The least from amount whose conversion gives at least `toMinor`: to ÷ rate
 * rounded up, so convert(convertBack(x)) ≥ x.
 */
export function convertBack(
  toMinor: bigint,
  rate: string,
  decimals: { from: number; to: number },
): bigint {
  const r = positive(fraction(rate), 'rate')
  return ceilDiv(toMinor * r.den * pow10(decimals.from), r.num * pow10(decimals.to))
}

function positive(value: Fraction, what: string): Fraction {
  if (value.num === 0n) throw new RangeError(`a ${what} must be positive`)
  return value
}

// ---------------------------------------------------------------------------
// A quote's amounts

export type AmountField = 'amount_from' | 'amount_to'

export interface PricedFee {
  kind: FeeKind
  amountMinor: bigint
  /** PERCENT lines: the percentage applied. */
  percent: string | null
}

export interface PricedQuote {
  fromMinor: bigint
  toMinor: bigint
  /** FIXED, PERCENT, NETWORK, each only when it is more than zero. */
  fees: PricedFee[]
  /** from + every fee: what the source pays. */
  totalMinor: bigint
}

/** from.amount outside its limits; `field` is the amount the caller gave. */
export type AmountLimitFailure = {
  kind: 'AMOUNT_TOO_SMALL' | 'AMOUNT_TOO_LARGE'
  field: AmountField
  limitMinor: bigint
}

export class AmountLimitError extends DomainError<AmountLimitFailure> {}

export interface QuotePricing {
  decimals: { from: number; to: number }
  /** Units of `to` per unit of `from`, as quoted (PAR when nothing converts). */
  rate: string
  /** The amount the caller gave, in minor units of its side's currency. */
  amount: { field: AmountField; minor: bigint }
  limits: AmountLimits
  fee: { fixed: string; percent: string }
  /** In the from currency; 0 when there is none. */
  networkFeeMinor: bigint
}

/**
 * Works out a quote: from and to (one given, the other converted), the fee
 * lines, and the total. Invariants: to = convert(from); total = from + fees;
 * given amount_to, the target receives at least it.
 * @throws AmountLimitError when from.amount is outside the limits, or converts to nothing
 */
export function priceQuote(input: QuotePricing): PricedQuote {
  const { decimals, rate, amount, limits } = input
  const fromMinor =
    amount.field === 'amount_from' ? amount.minor : convertBack(amount.minor, rate, decimals)
  if (fromMinor < limits.min)
    throw new AmountLimitError({
      kind: 'AMOUNT_TOO_SMALL',
      field: amount.field,
      limitMinor: limits.min,
    })
  if (fromMinor > limits.max)
    throw new AmountLimitError({
      kind: 'AMOUNT_TOO_LARGE',
      field: amount.field,
      limitMinor: limits.max,
    })
  const toMinorAmount = convert(fromMinor, rate, decimals)
  if (toMinorAmount <= 0n) {
    throw new AmountLimitError({
      kind: 'AMOUNT_TOO_SMALL',
      field: amount.field,
      limitMinor: limits.min,
    })
  }
  const fees: PricedFee[] = [
    { kind: 'FIXED' as const, amountMinor: toMinor(input.fee.fixed, decimals.from), percent: null },
    {
      kind: 'PERCENT' as const,
      amountMinor: percentFee(fromMinor, input.fee.percent),
      percent: input.fee.percent,
    },
    { kind: 'NETWORK' as const, amountMinor: input.networkFeeMinor, percent: null },
  ].filter((fee) => fee.amountMinor > 0n)
  const totalMinor = fees.reduce((sum, fee) => sum + fee.amountMinor, fromMinor)
  return { fromMinor, toMinor: toMinorAmount, fees, totalMinor }
}
