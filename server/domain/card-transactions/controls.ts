/**
 * The card network's check of a card's controls (issue 30), pure: the
 * authorisation runs it after the card's and account's status and before
 * the card's limits and the balance (rules.ts decide). No IO here: the sums a
 * category limit needs are read by the caller, for the windows
 * `categoryWindows` names, and passed in.
 */

import type {
  CardChannel,
  CardControls,
  ControlInterval,
  MerchantCategoryGroup,
} from '../../../contract/card-controls.ts'
import type { CardLimitKind, DeclineReason } from '../../../contract/card-transactions.ts'
import { merchantCategoryOf } from '../../../contract/merchant-categories.ts'
import { limitMinor, merchantKey } from '../cards/controls-rules.ts'

/** What the controls look at in an authorisation. */
export interface ControlledPayment {
  channel: CardChannel
  merchant: { name: string; mcc: string; country: string }
  /** Minor units of the account's currency. */
  amount: bigint
}

/**
 * What the card's approved payments in the merchant's category add up to,
 * before this one: this UTC day's and this UTC month's.
 */
export interface CategorySpent {
  day: bigint
  month: bigint
}

export interface ControlDecline {
  reason: Extract<
    DeclineReason,
    | 'CHANNEL_BLOCKED'
    | 'COUNTRY_BLOCKED'
    | 'MERCHANT_BLOCKED'
    | 'CATEGORY_BLOCKED'
    | 'CATEGORY_LIMIT_EXCEEDED'
  >
  /** With CATEGORY_LIMIT_EXCEEDED: the limit's window, named as a card limit's. */
  limit: CardLimitKind | null
}

/** A category limit's window as a decline names it (CardTransaction.exceeded_limit). */
export const LIMIT_KIND_OF: Record<ControlInterval, CardLimitKind> = {
  transaction: 'per_transaction',
  day: 'daily',
  month: 'monthly',
}

/** The windows the card's limits on `category` count over: the sums the check needs. */
export const categoryWindows = (
  controls: CardControls,
  category: MerchantCategoryGroup,
): ControlInterval[] =>
  controls.category_limits
    .filter((limit) => limit.category === category && limit.interval !== 'transaction')
    .map((limit) => limit.interval)

/**
 * The controls' decline of the payment, or undefined when they let it
 * through. Checked in this order, the first refusal the reason: the channel,
 * the merchant's country (blocked, or outside the allowed ones), the
 * merchant's name, its category group, then the category's limits (a
 * payment's, the day's, the month's; a limit may be reached exactly).
 */
export function controlDecline(
  controls: CardControls,
  payment: ControlledPayment,
  spent: CategorySpent,
  decimals: number,
): ControlDecline | undefined {
  const refuse = (reason: ControlDecline['reason'], limit: CardLimitKind | null = null) => ({
    reason,
    limit,
  })
  if (!controls.channels[payment.channel]) return refuse('CHANNEL_BLOCKED')
  const country = payment.merchant.country
  if (
    controls.blocked_countries.includes(country) ||
    (controls.allowed_countries !== null && !controls.allowed_countries.includes(country))
  ) {
    return refuse('COUNTRY_BLOCKED')
  }
  const name = merchantKey(payment.merchant.name)
  if (controls.blocked_merchants.some((blocked) => merchantKey(blocked) === name)) {
    return refuse('MERCHANT_BLOCKED')
  }
  const category = merchantCategoryOf(payment.merchant.mcc)
  if (controls.blocked_categories.includes(category)) return refuse('CATEGORY_BLOCKED')
  const before: Record<ControlInterval, bigint> = { transaction: 0n, ...spent }
  for (const interval of ['transaction', 'day', 'month'] as const) {
    const limit = controls.category_limits.find(
      (each) => each.category === category && each.interval === interval,
    )
    if (limit && before[interval] + payment.amount > limitMinor(limit, decimals)) {
      return refuse('CATEGORY_LIMIT_EXCEEDED', LIMIT_KIND_OF[interval])
    }
  }
  return undefined
}
