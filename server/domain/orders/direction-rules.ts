/**
 * The directions list (`GET /exchange/`): every way money can be moved or converted, with
 * indicative rates, limits and fees from the pricing rules (pricing.ts). Pure: no IO.
 */
import type { SubAccountType } from '../../../contract/fiat-accounts.ts'
import { fromMinor, toMinor } from '../../../contract/money.ts'
import { type ExchangeDirection, ORDER_TYPES, type OrderType } from '../../../contract/orders.ts'
import {
  amountLimits,
  BANK_RAIL_CURRENCIES,
  CARD_SUB_ACCOUNT_TYPES,
  exchangeRate,
  FEE_SCHEDULE,
  type Fraction,
  feeRule,
  fraction,
  isExchangeable,
  isWholesaleSource,
  normalizePercent,
  PAR,
  type PricedCurrency,
  spreadPercent,
} from './pricing.ts'

export interface CardProgramPricing {
  currency_uuid: string
  sub_account_type: SubAccountType
  /** The program's top-up percentage ("1.000"). */
  fee_top_up_percent: string
}

export interface DirectionInputs {
  /** The catalogue, in its order. */
  currencies: readonly PricedCurrency[]
  /** Code → USD per unit; a code without a price gives no direction that needs it. */
  prices: ReadonlyMap<string, string>
  /** The tenant's active card programs. */
  programs: readonly CardProgramPricing[]
  /** Currency uuid → the network fee of a withdrawal to an outside address, minor units. */
  networkFees: ReadonlyMap<string, bigint>
  asOf: Date
}

/**
 * Every way money can be moved or converted, with indicative rates (firm
 * ones come from a quote), in ORDER_TYPES order, then catalogue order of
 * from and to. Card top-ups are offered in the currencies of the tenant's
 * active programs; their fee_percent is the lowest program's (a quote charges
 * the account's own program's).
 */
export function exchangeDirections(inputs: DirectionInputs): ExchangeDirection[] {
  const { currencies, prices } = inputs
  const fiat = currencies.filter((currency) => currency.type === 'fiat')
  const crypto = currencies.filter((currency) => currency.type !== 'fiat')
  const asOf = inputs.asOf.toISOString()

  const limitsOf = (currency: PricedCurrency) => {
    if (currency.type === 'fiat') return amountLimits(currency)
    const price = prices.get(currency.code)
    return price === undefined ? undefined : amountLimits(currency, price)
  }
  const rateOf = (from: PricedCurrency, to: PricedCurrency) => {
    if (from.uuid === to.uuid) return PAR
    const priceFrom = prices.get(from.code)
    const priceTo = prices.get(to.code)
    if (priceFrom === undefined || priceTo === undefined) return undefined
    return exchangeRate(priceFrom, priceTo, spreadPercent(from, to))
  }
  const lowestPercent = (currencyUuid: string, types: readonly SubAccountType[]) => {
    const percents = inputs.programs
      .filter((p) => p.currency_uuid === currencyUuid && types.includes(p.sub_account_type))
      .map((p) => fraction(p.fee_top_up_percent))
    if (percents.length === 0) return undefined
    const lowest = percents.reduce((a, b) => (a.num * b.den <= b.num * a.den ? a : b))
    return normalizePercent(fromFraction(lowest))
  }

  const direction = (
    orderType: OrderType,
    from: PricedCurrency,
    to: PricedCurrency,
    programPercent?: string,
  ): ExchangeDirection[] => {
    const rate = rateOf(from, to)
    const limits = limitsOf(from)
    const networkFee = FEE_SCHEDULE[orderType].networkFee ? inputs.networkFees.get(from.uuid) : null
    if (rate === undefined || limits === undefined || networkFee === undefined) return []
    const rule = feeRule(orderType, programPercent)
    const side = (currency: PricedCurrency) => ({
      currency_uuid: currency.uuid,
      currency: currency.code,
      chain: currency.chain,
    })
    return [
      {
        order_type: orderType,
        from: side(from),
        to: side(to),
        rate,
        min_amount: fromMinor(limits.min, from.decimals),
        max_amount: fromMinor(limits.max, from.decimals),
        fee_fixed: fromMinor(toMinor(rule.fixed, from.decimals), from.decimals),
        fee_percent: rule.percent,
        network_fee: networkFee === null ? null : fromMinor(networkFee, from.decimals),
        as_of: asOf,
      },
    ]
  }

  const byType: Record<OrderType, () => ExchangeDirection[]> = {
    DEPOSIT_FIAT_SEPA: () => bankRail('DEPOSIT_FIAT_SEPA'),
    DEPOSIT_FIAT_SWIFT: () => bankRail('DEPOSIT_FIAT_SWIFT'),
    WITHDRAWAL_FIAT_SEPA: () => bankRail('WITHDRAWAL_FIAT_SEPA'),
    TRANSFER_CARD_PREPAID: () => cardTopUp('TRANSFER_CARD_PREPAID'),
    TRANSFER_CARD_SUBACCOUNT: () => cardTopUp('TRANSFER_CARD_SUBACCOUNT'),
    WITHDRAWAL_CRYPTO: () =>
      crypto.flatMap((currency) => direction('WITHDRAWAL_CRYPTO', currency, currency)),
    EXCHANGE_CRYPTO_INTERNAL: () =>
      currencies.flatMap((from) =>
        currencies
          .filter((to) => isExchangeable(from, to))
          .flatMap((to) => direction('EXCHANGE_CRYPTO_INTERNAL', from, to)),
      ),
    TRANSFER_CARD_WHOLESALE: () =>
      currencies.filter(isWholesaleSource).flatMap((from) =>
        fiat.flatMap((to) => {
          const types = CARD_SUB_ACCOUNT_TYPES.TRANSFER_CARD_WHOLESALE!
          const percent = lowestPercent(to.uuid, types)
          return percent === undefined
            ? []
            : direction('TRANSFER_CARD_WHOLESALE', from, to, percent)
        }),
      ),
  }

  function bankRail(orderType: OrderType) {
    const codes = BANK_RAIL_CURRENCIES[orderType]!
    return fiat
      .filter((currency) => codes.includes(currency.code))
      .flatMap((currency) => direction(orderType, currency, currency))
  }

  function cardTopUp(orderType: OrderType) {
    return fiat.flatMap((currency) => {
      const percent = lowestPercent(currency.uuid, CARD_SUB_ACCOUNT_TYPES[orderType]!)
      return percent === undefined ? [] : direction(orderType, currency, currency, percent)
    })
  }

  return ORDER_TYPES.flatMap((orderType) => byType[orderType]())
}

/** A fraction with a power-of-ten denominator (as `fraction` makes) back to its decimal. */
function fromFraction(value: Fraction): string {
  const places = value.den.toString().length - 1
  return fromMinor(value.num, places)
}
