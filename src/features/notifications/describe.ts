import type { EventKind, Notification } from '../../../contract/events.ts'
import { declineWords } from '../../i18n/declines.ts'
import type { MessageKey } from '../../i18n/en.ts'
import type { Language, Translate } from '../../i18n/i18n.tsx'
import { formatMoney, type MoneySign } from '../../i18n/money.ts'

type Data = Record<string, unknown>
const text = (data: Data, key: string) =>
  typeof data[key] === 'string' ? (data[key] as string) : ''

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
      'card.transaction.settled',
      'card.transaction.refunded',
    ],
  },
  {
    label: 'notifications.group.money',
    kinds: ['deposit.detected', 'deposit.confirmed', 'order.completed', 'order.failed'],
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

/**
 * What one notification says: a title in the person's words and a line of
 * detail (the amount, the reason). Reads only fields of the payload's version
 * 1; a field a newer version adds is ignored, one missing shows as blank.
 */
export function describeNotification(
  item: Pick<Notification, 'kind' | 'data'>,
  t: Translate,
  language: Language,
): { title: string; detail: string; amount?: string; failed?: boolean } {
  const data = item.data
  const money = (amount: string, currency: string, sign?: MoneySign) =>
    amount && currency ? formatMoney(language, { amount, currency }, sign ? { sign } : {}) : ''
  const title = t(`notifications.kind.${item.kind}`, {
    merchant: text(data, 'merchant_name'),
    // A key, a passkey, or the other person of a transfer.
    name:
      text(data, 'name') ||
      text(data, 'to_name') ||
      text(data, 'from_name') ||
      text(data, 'payer_name'),
  })
  const sent = money(text(data, 'amount'), text(data, 'currency'), 'out')
  const got = money(text(data, 'amount'), text(data, 'currency'), 'in')
  const device = text(data, 'device')
  switch (item.kind) {
    // A card line is the merchant, as in the card's history (EXPERIENCE.md: people's words).
    case 'card.authorization.approved':
    case 'card.transaction.settled':
      return {
        title: text(data, 'merchant_name') || title,
        detail: t(
          item.kind === 'card.transaction.settled'
            ? 'notifications.card.settled'
            : 'notifications.card.approved',
        ),
        amount: money(text(data, 'amount'), text(data, 'currency'), 'out'),
      }
    case 'card.authorization.declined':
      return {
        title: text(data, 'merchant_name') || title,
        detail: declineWords(t, text(data, 'reason')),
        amount: money(text(data, 'amount'), text(data, 'currency')),
        failed: true,
      }
    case 'card.transaction.refunded':
      return {
        title: text(data, 'merchant_name') || title,
        detail: t('notifications.card.refunded'),
        amount: money(text(data, 'amount'), text(data, 'currency'), 'in'),
      }
    case 'deposit.detected':
      return {
        title,
        detail: t('notifications.detail.onTheWay', {
          amount: money(text(data, 'amount'), text(data, 'currency')),
        }),
      }
    case 'deposit.confirmed':
      return {
        title,
        detail: '',
        amount: money(text(data, 'amount'), text(data, 'currency'), 'in'),
      }
    case 'order.completed':
    case 'order.failed':
      return {
        title,
        detail: `${money(text(data, 'from_amount'), text(data, 'from_currency'))} → ${money(text(data, 'to_amount'), text(data, 'to_currency'))}`,
        failed: item.kind === 'order.failed',
      }
    case 'kyc.status_changed': {
      const status = text(data, 'status')
      const key: MessageKey =
        status === 'APPROVED'
          ? 'notifications.detail.kycApproved'
          : status === 'PENDING' || status === 'HOLD'
            ? 'notifications.detail.kycPending'
            : 'notifications.detail.kycAttention'
      return { title, detail: t(key) }
    }
    case 'security.sign_in_new_device':
      return { title, detail: t('notifications.detail.newDevice') }
    case 'security.api_key_created':
    case 'security.passkey_added':
    case 'security.passkey_removed':
      return { title, detail: t('notifications.detail.notYou') }
    case 'security.contact_changed':
      return { title, detail: t('notifications.detail.contact', { masked: text(data, 'masked') }) }
    case 'security.password_changed':
      return {
        title,
        detail: t(
          data.via === 'reset'
            ? 'notifications.detail.passwordReset'
            : 'notifications.detail.passwordChanged',
        ),
      }
    case 'card.issued':
      return {
        title,
        detail:
          data.form_factor === 'PHYSICAL'
            ? t('notifications.detail.cardPhysical', {
                last4: text(data, 'last4'),
                place: text(data, 'delivery_to'),
              })
            : t('notifications.detail.cardVirtual', { last4: text(data, 'last4') }),
      }
    case 'security.api_key_changed':
      return {
        title,
        detail: t(
          data.change === 'rotated'
            ? 'notifications.detail.keyRotated'
            : 'notifications.detail.notYou',
        ),
      }
    case 'security.webhook_endpoint_added':
      return { title, detail: text(data, 'url') }
    case 'security.webhook_endpoint_changed':
      return {
        title,
        detail:
          data.change === 'secret'
            ? t('notifications.detail.webhookSecret')
            : t('notifications.detail.webhookUrl', { url: text(data, 'url') }),
      }
    case 'security.push_subscription_added':
      return {
        title,
        detail: device
          ? t('notifications.detail.pushDevice', { device })
          : t('notifications.detail.unknownDevice'),
      }
    // The payer's note is the line under a payment between people, as in the feed.
    case 'transfer.sent':
      return {
        title,
        detail:
          data.status === 'AWAITING_CLAIM'
            ? t('notifications.detail.awaitingClaim')
            : text(data, 'note'),
        amount: sent,
      }
    case 'transfer.claimed':
      return { title, detail: text(data, 'note'), amount: sent }
    case 'transfer.received':
    case 'payment_request.paid':
      return { title, detail: text(data, 'note'), amount: got }
    case 'transfer.returned':
      return {
        title,
        detail: t('notifications.detail.notClaimed', { name: text(data, 'to_name') }),
        amount: got,
      }
    case 'schedule.run_failed':
    case 'schedule.run_skipped': {
      const reason = text(data, 'reason')
      return {
        title,
        detail:
          reason === 'INSUFFICIENT_FUNDS'
            ? t('notifications.detail.runShort', {
                amount: money(text(data, 'amount'), text(data, 'currency')),
              })
            : reason === 'PRICE_MOVED'
              ? t('notifications.detail.runPriceMoved')
              : t('notifications.detail.runRefused', { reason }),
        failed: item.kind === 'schedule.run_failed',
      }
    }
  }
}

/** When, as a list shows it: the time today, else the day ("12 Nov"). */
export function shortTime(language: Language, iso: string, now = new Date()): string {
  const at = new Date(iso)
  const today = at.toDateString() === now.toDateString()
  return new Intl.DateTimeFormat(
    language,
    today ? { hour: 'numeric', minute: '2-digit' } : { day: 'numeric', month: 'short' },
  ).format(at)
}
