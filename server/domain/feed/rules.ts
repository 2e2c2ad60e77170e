/**
 * What the feed's writers share, the pure part: the step an item's timeline
 * gains, and the status an order, a crypto deposit or a card payment has in
 * the feed. No IO here.
 */
import type { ActivityEventCode, ActivityStatus } from '../../../contract/activity.ts'
import type { CardTransactionStatus } from '../../../contract/card-transactions.ts'
import type { OrderStatus } from '../../../contract/orders.ts'
import type { TransactionStatus } from '../../../contract/wallets.ts'
import type { StoredActivityEvent } from '../../infra/db/schema.ts'

/** One step on an item's timeline; `amountMinor` when the step moved a part of it. */
export const timelineStep = (
  status: ActivityStatus,
  code: ActivityEventCode,
  at: Date,
  amountMinor: bigint | null = null,
): StoredActivityEvent => ({
  status,
  code,
  at: at.toISOString(),
  amount_minor: amountMinor === null ? null : amountMinor.toString(),
})

export function orderActivityStatus(status: OrderStatus): ActivityStatus {
  switch (status) {
    case 'NEW':
    case 'PENDING':
      return 'pending'
    case 'COMPLETE':
      return 'complete'
    case 'FAILED':
    case 'ERROR':
      return 'failed'
    case 'CANCELED':
      return 'canceled'
  }
}

/** A crypto deposit record's status in the feed: under way until complete. */
export function depositActivityStatus(status: TransactionStatus): ActivityStatus {
  switch (status) {
    case 'complete':
      return 'complete'
    case 'failed':
      return 'failed'
    case 'canceled':
      return 'canceled'
    default:
      return 'pending'
  }
}

/** An authorisation's status in the feed (before any refund). */
export function authorizationActivityStatus(status: CardTransactionStatus): ActivityStatus {
  switch (status) {
    case 'APPROVED':
      return 'pending'
    case 'SETTLED':
      return 'complete'
    case 'REVERSED':
      return 'reversed'
    case 'DECLINED':
      return 'declined'
  }
}

/** A settled payment refunded in full reads "refunded"; a part refund leaves it complete. */
export const afterRefund = (amount: bigint, refunded: bigint): ActivityStatus =>
  refunded >= amount ? 'refunded' : 'complete'
