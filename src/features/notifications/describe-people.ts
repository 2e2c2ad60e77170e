import type { Translate } from '../../i18n/i18n.tsx'
import type { MoneySign } from '../../i18n/money.ts'
import { type Data, type Description, text } from './payload.ts'

/** A payment between people or a scheduled run: titled by its kind, naming the other person. */
export type PeopleKind =
  | 'transfer.sent'
  | 'transfer.received'
  | 'transfer.claimed'
  | 'transfer.returned'
  | 'payment_request.paid'
  | 'schedule.run_failed'
  | 'schedule.run_skipped'

/** A payment between people, the payer's note under it as in the feed; a scheduled run that moved nothing. */
export function describePeople(
  kind: PeopleKind,
  data: Data,
  t: Translate,
  amount: (sign?: MoneySign) => string,
): Description {
  const name = text(data, 'to_name') || text(data, 'from_name') || text(data, 'payer_name')
  const title = t(`notifications.kind.${kind}`, { name })
  switch (kind) {
    case 'transfer.sent':
      return {
        title,
        detail:
          data.status === 'AWAITING_CLAIM'
            ? t('notifications.detail.awaitingClaim')
            : text(data, 'note'),
        amount: amount('out'),
      }
    case 'transfer.claimed':
      return {
        title,
        detail: text(data, 'note') || t('activity.event.CLAIMED'),
        amount: amount('out'),
      }
    case 'transfer.received':
    case 'payment_request.paid':
      return { title, detail: text(data, 'note'), amount: amount('in') }
    case 'transfer.returned':
      return {
        title,
        detail: t('notifications.detail.notClaimed', { name: text(data, 'to_name') }),
        amount: amount('in'),
      }
    case 'schedule.run_failed':
    case 'schedule.run_skipped': {
      const reason = text(data, 'reason')
      return {
        title,
        detail:
          reason === 'INSUFFICIENT_FUNDS'
            ? t('notifications.detail.runShort', { amount: amount() })
            : reason === 'PRICE_MOVED'
              ? t('notifications.detail.runPriceMoved')
              : t('notifications.detail.runRefused', { reason }),
        ...(kind === 'schedule.run_failed' ? { failed: true } : {}),
      }
    }
  }
}
