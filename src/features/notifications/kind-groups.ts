import type { EventKind } from '../../../contract/events.ts'
import type { MessageKey } from '../../i18n/en.ts'
import type { Translate } from '../../i18n/i18n.tsx'

/**
 * The groups of kinds the preferences list, in the order they are shown: the
 * kinds a person may mute. Security kinds (and a new card) are always told
 * (contract/event-kinds.ts alwaysTold): the preferences say so in one line.
 */
export const KIND_GROUPS: { label: MessageKey; kinds: EventKind[] }[] = [
  {
    label: 'notifications.group.payments',
    kinds: [
      'card.authorization.approved',
      'card.authorization.declined',
      'card.authorization.reversed',
      'card.transaction.settled',
      'card.transaction.refunded',
      'card.fee.charged',
      'card.closed',
      'card.dispute.updated',
    ],
  },
  {
    label: 'notifications.group.money',
    kinds: [
      'deposit.detected',
      'deposit.confirmed',
      'fiat.credit.received',
      'order.completed',
      'order.failed',
      'card.auto_top_up.placed',
      'card.auto_top_up.failed',
    ],
  },
  {
    label: 'notifications.group.people',
    kinds: [
      'transfer.received',
      'transfer.sent',
      'transfer.claimed',
      'transfer.returned',
      'payment_request.paid',
    ],
  },
  {
    label: 'notifications.group.schedules',
    kinds: ['schedule.run_failed', 'schedule.run_skipped'],
  },
  {
    label: 'notifications.group.account',
    kinds: ['kyc.status_changed'],
  },
]

/** A kind as the preferences name it ("Card refunds"). */
export const kindLabel = (t: Translate, kind: EventKind) => t(`push.kind.${kind}`)
