/**
 * What an order is in the feed of the person who placed it (type, direction,
 * amounts), from its rail: the pure part of order-feed.ts. No IO here.
 */
import type { ActivityDirection, ActivityType } from '../../../contract/activity.ts'
import type { StoredFee } from '../../infra/db/schema.ts'
import type { Rail } from './rules.ts'

/** What an order is in the feed of the person who placed it, from its rail. */
export interface OrderShape {
  type: ActivityType
  direction: ActivityDirection
  /** Minor units of `amount` (from currency, or what a deposit credits). */
  amount: bigint
  /** Fees, in the from currency. */
  fee: bigint
  /** What arrives on the person's other side, in the to currency; null when nothing does. */
  received: bigint | null
}

export interface OrderAmounts {
  amountFrom: bigint
  amountTo: bigint
  fees: readonly Pick<StoredFee, 'amount_minor'>[]
}

export const feeTotal = (fees: OrderAmounts['fees']) =>
  fees.reduce((sum, fee) => sum + BigInt(fee.amount_minor), 0n)

/**
 * - bank_in: a deposit; `amount` is what is credited (the transfer was amount + fee);
 * - bank_out, chain: a send;
 * - wallet: a transfer when the target wallet is the person's own, else a send;
 * - exchange: an exchange, its proceeds `received`;
 * - fiat_account: a card top-up, what reached the account `received`.
 */
export function orderShape(rail: Rail, order: OrderAmounts, ownTarget: boolean): OrderShape {
  const fee = feeTotal(order.fees)
  switch (rail) {
    case 'bank_in':
      return { type: 'deposit', direction: 'in', amount: order.amountTo, fee, received: null }
    case 'bank_out':
    case 'chain':
      return { type: 'send', direction: 'out', amount: order.amountFrom, fee, received: null }
    case 'wallet':
      return ownTarget
        ? {
            type: 'transfer',
            direction: 'own',
            amount: order.amountFrom,
            fee,
            received: order.amountTo,
          }
        : { type: 'send', direction: 'out', amount: order.amountFrom, fee, received: null }
    case 'exchange':
      return {
        type: 'exchange',
        direction: 'own',
        amount: order.amountFrom,
        fee,
        received: order.amountTo,
      }
    case 'fiat_account':
      return {
        type: 'card_top_up',
        direction: 'own',
        amount: order.amountFrom,
        fee,
        received: order.amountTo,
      }
  }
}
