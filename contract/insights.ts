import { type Static, Type } from '@sinclair/typebox'
import { oneOf } from './enums.ts'
import { MERCHANT_CATEGORY_GROUPS } from './merchant-categories.ts'
import { RATE_BASES } from './rates.ts'

export {
  MERCHANT_CATEGORIES,
  MERCHANT_CATEGORY_GROUPS,
  type MerchantCategoryGroup,
  merchantCategoryOf,
} from './merchant-categories.ts'

/*
 * Insights (issue 31): where the money went and came from, in the person's
 * display currency, and how a wallet's balance moved, from the ledger.
 */

/**
 * What spending is grouped by: a card payment by its merchant's category
 * group (contract/merchant-categories.ts), money sent to people as
 * `transfers`, card program fees as `fees`. Income (deposits, money received)
 * is one group of its own, `income`.
 */
export const INSIGHT_CATEGORIES = [...MERCHANT_CATEGORY_GROUPS, 'transfers', 'fees'] as const
export type InsightCategory = (typeof INSIGHT_CATEGORIES)[number]

export const INSIGHT_GROUPINGS = ['category', 'merchant', 'month'] as const
export type InsightGrouping = (typeof INSIGHT_GROUPINGS)[number]

/**
 * How amounts in other currencies were converted:
 * - `movement`: each at the rate recorded with it (an exchange's, a top-up's);
 * - `current`: at today's rates (`rates_as_of`): the rates provider keeps no history;
 * - `mixed`: some of each;
 * - `none`: nothing needed converting.
 */
export const RATE_BASES_USED = ['movement', 'current', 'mixed', 'none'] as const
export type RateBasisUsed = (typeof RATE_BASES_USED)[number]

const DateTime = Type.String({ format: 'date-time' })
const Amount = Type.String({ pattern: '^-?[0-9]+(\\.[0-9]+)?$' })

/** What both reads take: the period, the display currency, the zone days and months are in. */
const PERIOD = {
  from: DateTime,
  to: DateTime,
  currency: Type.Optional(oneOf(RATE_BASES)),
  time_zone: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
}

/**
 * `GET /api/v2/insights/spending`: `from` inclusive, `to` exclusive (at most
 * 366 days apart); `currency` the display currency (EUR when not given);
 * `time_zone` (IANA, UTC when not given) decides which month a movement is in.
 */
export const SpendingQuery = Type.Object({
  ...PERIOD,
  group: Type.Optional(oneOf(INSIGHT_GROUPINGS)),
})
export type SpendingQuery = Static<typeof SpendingQuery>

export const SpendingGroup = Type.Object({
  /** A category (INSIGHT_CATEGORIES), a merchant's or payee's name, or a month (`2026-03`). */
  key: Type.String(),
  /** Money out in the group, in `currency`, never negative (refunds taken off). */
  spending: Amount,
  /** Money in (deposits, money received); only months have any. */
  income: Amount,
  /** Movements counted. */
  count: Type.Integer(),
  /**
   * The same group's spending in the period just before: the previous month
   * for a month, the same length before `from` otherwise.
   */
  previous_spending: Amount,
  /** Spending's change against `previous_spending`, in percent (one decimal); null when that was zero. */
  change_percent: Type.Union([Type.String(), Type.Null()]),
})
export type SpendingGroup = Static<typeof SpendingGroup>

export const SpendingInsights = Type.Object({
  from: DateTime,
  to: DateTime,
  group: oneOf(INSIGHT_GROUPINGS),
  currency: oneOf(RATE_BASES),
  spending: Amount,
  income: Amount,
  previous_spending: Amount,
  previous_income: Amount,
  /** Biggest spending first (a month grouping: oldest month first). */
  groups: Type.Array(SpendingGroup),
  rate_basis: oneOf(RATE_BASES_USED),
  /** When today's rates were taken, if any amount was converted at them. */
  rates_as_of: Type.Union([DateTime, Type.Null()]),
})
export type SpendingInsights = Static<typeof SpendingInsights>

export const BALANCE_INTERVALS = ['day', 'week'] as const
export type BalanceInterval = (typeof BALANCE_INTERVALS)[number]

/**
 * `GET /api/v2/insights/balance-history`: the wallet's balance at the end of
 * each day or week (weeks start on Monday) of `from`–`to`, from the ledger.
 * With `currency`, each point also has the total in it at today's rates.
 */
export const BalanceHistoryQuery = Type.Object({
  wallet_uuid: Type.String({ format: 'uuid' }),
  ...PERIOD,
  interval: Type.Optional(oneOf(BALANCE_INTERVALS)),
})
export type BalanceHistoryQuery = Static<typeof BalanceHistoryQuery>

export const BalancePoint = Type.Object({
  /** The day or week's start, `2026-03-09`. */
  date: Type.String({ pattern: '^[0-9]{4}-[0-9]{2}-[0-9]{2}$' }),
  /** The balance at its end. */
  balance: Amount,
})
export type BalancePoint = Static<typeof BalancePoint>

export const BalanceHistory = Type.Object({
  wallet_uuid: Type.String({ format: 'uuid' }),
  from: DateTime,
  to: DateTime,
  interval: oneOf(BALANCE_INTERVALS),
  /** One line per currency the wallet held in the period, in catalogue order. */
  currencies: Type.Array(
    Type.Object({
      currency_uuid: Type.String({ format: 'uuid' }),
      currency: Type.String(),
      chain: Type.Union([Type.String(), Type.Null()]),
      decimals: Type.Integer(),
      points: Type.Array(BalancePoint),
    }),
  ),
  /** With `currency`: every line added up at today's rates, point by point. */
  total: Type.Union([
    Type.Object({
      currency: oneOf(RATE_BASES),
      rates_as_of: DateTime,
      points: Type.Array(BalancePoint),
    }),
    Type.Null(),
  ]),
})
export type BalanceHistory = Static<typeof BalanceHistory>
