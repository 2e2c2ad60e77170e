import type { EventKind, Notification } from '../../../contract/events.ts'
import { declineWords } from '../../i18n/declines.ts'
import { formatLocale } from '../../i18n/digits.ts'
import type { MessageKey } from '../../i18n/en.ts'
import type { Language, Translate } from '../../i18n/i18n.tsx'
import { formatMoney, type MoneySign } from '../../i18n/money.ts'
import { describeOrder, type OrderKind } from './describe-order.ts'
import { describePeople, type PeopleKind } from './describe-people.ts'
import { type Description, text } from './payload.ts'

/** The kinds about the person's account, not a movement of money: each titled by its kind. */
type AccountKind = Exclude<
  EventKind,
  | 'card.authorization.approved'
  | 'card.authorization.declined'
  | 'card.authorization.reversed'
  | 'card.transaction.settled'
  | 'card.transaction.refunded'
  | 'card.fee.charged'
  | 'card.closed'
  | 'deposit.detected'
  | 'deposit.confirmed'
  | 'fiat.credit.received'
  | OrderKind
  | PeopleKind
>

/**
 * What one notification says, in the activity feed's words (issue 27): who
 * or what it is about as the title, what happened as the detail, the amount
 * signed as the feed signs it — never the ledger's "Order completed".
 * Reads the payload's fields by name; one an older event lacks shows as
 * nothing, one a newer version adds is ignored.
 */
export function describeNotification(
  item: Pick<Notification, 'kind' | 'data'>,
  t: Translate,
  language: Language,
): Description {
  const data = item.data
  const money = (amount: string, currency: string, sign?: MoneySign) =>
    amount && currency ? formatMoney(language, { amount, currency }, sign ? { sign } : {}) : ''
  const card = (sign?: MoneySign) => money(text(data, 'amount'), text(data, 'currency'), sign)
  const merchant = text(data, 'merchant_name')
  const device = text(data, 'device')
  // An account line's title is its kind's, naming the key or passkey where there is one.
  const titled = (kind: AccountKind) =>
    t(`notifications.kind.${kind}`, { name: text(data, 'name') })
  switch (item.kind) {
    // A card line is the merchant, as in the card's history (docs/experience.md: people's words).
    case 'card.authorization.approved':
    case 'card.transaction.settled':
      return {
        title: merchant || t('notifications.card.approved'),
        detail: t(
          item.kind === 'card.transaction.settled'
            ? 'notifications.card.settled'
            : 'notifications.card.approved',
        ),
        amount: card('out'),
      }
    case 'card.authorization.declined':
      return {
        title: merchant || t('notifications.card.approved'),
        detail: declineWords(t, text(data, 'reason'), null, text(data, 'channel')),
        amount: card(),
        failed: true,
      }
    // Nothing was charged: the amount unsigned, as the card's history shows a reversal.
    case 'card.authorization.reversed':
      return {
        title: merchant || t('notifications.card.approved'),
        detail: t('notifications.card.reversed'),
        amount: card(),
      }
    case 'card.transaction.refunded':
      return {
        title: merchant || t('notifications.card.refunded'),
        detail: t('notifications.card.refunded'),
        amount: card('in'),
      }
    case 'card.closed': {
      const returned = money(text(data, 'returned_amount'), text(data, 'currency'), 'in')
      return {
        title: t('notifications.card.closed', { last4: text(data, 'last4') }),
        detail: t(
          returned ? 'notifications.detail.cardReturned' : 'notifications.detail.cardClosed',
        ),
        ...(returned ? { amount: returned } : {}),
      }
    }
    case 'card.fee.charged': {
      const title = t(
        data.fee_kind === 'ISSUE' ? 'activity.title.feeIssue' : 'activity.title.feeMonthly',
      )
      if (data.paid === false) {
        return {
          title,
          detail: t('notifications.detail.feeDeclined'),
          amount: card(),
          failed: true,
        }
      }
      return { title, detail: t('notifications.detail.feeCharged'), amount: card('out') }
    }
    case 'deposit.detected':
    case 'deposit.confirmed': {
      const confirmed = item.kind === 'deposit.confirmed'
      return {
        title: t('activity.title.deposit', { currency: text(data, 'currency') }),
        detail: t(confirmed ? 'notifications.detail.arrived' : 'notifications.detail.onTheWay'),
        amount: card(confirmed ? 'in' : undefined),
      }
    }
    case 'fiat.credit.received': {
      const sender = text(data, 'sender_name')
      return {
        title: sender
          ? t('activity.title.from', { name: sender })
          : t('activity.title.bankDeposit'),
        detail: text(data, 'remittance') || t('notifications.detail.arrived'),
        amount: card('in'),
      }
    }
    case 'order.created':
    case 'order.completed':
    case 'order.failed':
    case 'order.canceled':
      return describeOrder(item.kind, data, t, money)
    case 'kyc.status_changed': {
      const status = text(data, 'status')
      const key: MessageKey =
        status === 'APPROVED'
          ? 'notifications.detail.kycApproved'
          : status === 'PENDING' || status === 'HOLD'
            ? 'notifications.detail.kycPending'
            : 'notifications.detail.kycAttention'
      return { title: titled(item.kind), detail: t(key) }
    }
    case 'security.sign_in_new_device':
      return { title: titled(item.kind), detail: t('notifications.detail.newDevice') }
    case 'security.api_key_created':
      return { title: titled(item.kind), detail: '' }
    case 'security.passkey_added':
    case 'security.passkey_removed':
      return { title: titled(item.kind), detail: t('notifications.detail.notYou') }
    case 'security.password_changed':
      return {
        title: titled(item.kind),
        detail: t(
          data.via === 'reset'
            ? 'notifications.detail.passwordReset'
            : 'notifications.detail.passwordChanged',
        ),
      }
    case 'card.issued':
      return {
        title: titled(item.kind),
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
        title: titled(item.kind),
        detail: t(
          data.change === 'rotated'
            ? 'notifications.detail.keyRotated'
            : 'notifications.detail.notYou',
        ),
      }
    case 'security.webhook_endpoint_added':
      return { title: titled(item.kind), detail: text(data, 'url') }
    case 'security.webhook_endpoint_changed':
      return {
        title: titled(item.kind),
        detail:
          data.change === 'secret'
            ? t('notifications.detail.webhookSecret')
            : t('notifications.detail.webhookUrl', { url: text(data, 'url') }),
      }
    case 'security.push_subscription_added':
      return {
        title: titled(item.kind),
        detail: device
          ? t('notifications.detail.pushDevice', { device })
          : t('notifications.detail.unknownDevice'),
      }
    case 'security.contact_changed':
      return {
        title: titled(item.kind),
        detail: t('notifications.detail.contact', { masked: text(data, 'masked') }),
      }
    case 'transfer.sent':
    case 'transfer.received':
    case 'transfer.claimed':
    case 'transfer.returned':
    case 'payment_request.paid':
    case 'schedule.run_failed':
    case 'schedule.run_skipped':
      return describePeople(item.kind, data, t, card)
    case 'card.dispute.updated':
      return {
        title: merchant || titled(item.kind),
        detail: t(DISPUTE_STEPS[text(data, 'status')] ?? 'notifications.detail.dispute.SUBMITTED'),
        amount:
          typeof data.credited === 'string'
            ? money(data.credited, text(data, 'currency'), 'in')
            : card(),
      }
    case 'card.auto_top_up.placed':
      return {
        title: titled(item.kind),
        detail: t('notifications.detail.autoTopUp'),
        amount: card('in'),
      }
    case 'card.auto_top_up.failed':
      return {
        title: titled(item.kind),
        detail: t('notifications.detail.autoTopUpFailed'),
        amount: card(),
        failed: true,
      }
    case 'security.lockdown':
      return {
        title: titled(item.kind),
        detail: t(
          data.state === 'lifted'
            ? 'notifications.detail.lockdownLifted'
            : 'notifications.detail.lockdownStarted',
        ),
      }
  }
}

/** A dispute's step, as its notification says it. */
const DISPUTE_STEPS: Record<string, MessageKey> = {
  SUBMITTED: 'notifications.detail.dispute.SUBMITTED',
  UNDER_REVIEW: 'notifications.detail.dispute.UNDER_REVIEW',
  WON: 'notifications.detail.dispute.WON',
  LOST: 'notifications.detail.dispute.LOST',
}

/** When, as a list shows it: the time today, else the day ("12 Nov"). */
export function shortTime(language: Language, iso: string, now = new Date()): string {
  const at = new Date(iso)
  const today = at.toDateString() === now.toDateString()
  return new Intl.DateTimeFormat(
    formatLocale(language),
    today ? { hour: 'numeric', minute: '2-digit' } : { day: 'numeric', month: 'short' },
  ).format(at)
}
