import { orderKindOf, shortAddress } from '../../../contract/display-rules.ts'
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

/** An order's events: each titled as the order's feed item is. */
type OrderKind = 'order.created' | 'order.completed' | 'order.failed' | 'order.canceled'

/** A payment between people or a scheduled run: titled by its kind, naming the other person. */
type PeopleKind =
  | 'transfer.sent'
  | 'transfer.received'
  | 'transfer.claimed'
  | 'transfer.returned'
  | 'payment_request.paid'
  | 'schedule.run_failed'
  | 'schedule.run_skipped'

/** A kind as the preferences name it ("Card refunds"). */
export const kindLabel = (t: Translate, kind: EventKind) => t(`push.kind.${kind}`)

/** Why an order failed, in a sentence that says where the money is (the server's messages.ts says the same). */
const ORDER_FAILURES: Record<string, MessageKey> = {
  ADDRESS_REJECTED: 'notifications.orderFailed.ADDRESS_REJECTED',
  ACCOUNT_CLOSED: 'notifications.orderFailed.ACCOUNT_CLOSED',
}

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
): { title: string; detail: string; amount?: string; failed?: boolean } {
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

/** A payment between people, the payer's note under it as in the feed; a scheduled run that moved nothing. */
function describePeople(
  kind: PeopleKind,
  data: Data,
  t: Translate,
  amount: (sign?: MoneySign) => string,
): { title: string; detail: string; amount?: string; failed?: boolean } {
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

/** A dispute's step, as its notification says it. */
const DISPUTE_STEPS: Record<string, MessageKey> = {
  SUBMITTED: 'notifications.detail.dispute.SUBMITTED',
  UNDER_REVIEW: 'notifications.detail.dispute.UNDER_REVIEW',
  WON: 'notifications.detail.dispute.WON',
  LOST: 'notifications.detail.dispute.LOST',
}

/** An order's outcome as its activity item reads: "To Anna Schmidt", "Sent", "−€51.00". */
function describeOrder(
  told: OrderKind,
  data: Data,
  t: Translate,
  money: (amount: string, currency: string, sign?: MoneySign) => string,
): { title: string; detail: string; amount?: string; failed?: boolean } {
  const who = text(data, 'counterparty_name')
  const from = text(data, 'from_currency')
  const to = text(data, 'to_currency')
  const address = text(data, 'address')
  // What left the person: the amount with its fee (older events carry no total).
  const paid = (sign?: MoneySign) =>
    money(text(data, 'total_amount') || text(data, 'from_amount'), from, sign)
  const got = (sign?: MoneySign) => money(text(data, 'to_amount'), to, sign)
  const kind = orderKindOf(text(data, 'type'))
  const title =
    kind === 'exchange'
      ? t('activity.title.exchange', { from, to })
      : kind === 'deposit'
        ? who
          ? t('activity.title.from', { name: who })
          : t('activity.title.bankDeposit')
        : kind === 'topUp'
          ? text(data, 'card_last4')
            ? t('activity.title.topUpCard', { last4: text(data, 'card_last4') })
            : t('activity.title.topUp')
          : who || address
            ? t('activity.title.to', { name: who || shortAddress(address) })
            : t('activity.title.send', { currency: from })
  switch (told) {
    case 'order.failed':
      return {
        title,
        detail: t(ORDER_FAILURES[text(data, 'reason')] ?? 'notifications.orderFailed.other'),
        amount: money(text(data, 'from_amount'), from),
        failed: true,
      }
    case 'order.canceled':
      return {
        title,
        detail: t('notifications.order.canceled'),
        amount: money(text(data, 'from_amount'), from),
      }
    // Set aside, not gone yet: unsigned. A deposit waits for the transfer its reference names.
    case 'order.created': {
      const reference = text(data, 'deposit_reference')
      return {
        title,
        detail: reference
          ? t('notifications.order.awaitingTransfer', { reference })
          : t('notifications.order.placed'),
        amount: kind === 'deposit' ? money(text(data, 'from_amount'), from) : paid(),
      }
    }
    case 'order.completed':
      break
  }
  switch (kind) {
    case 'exchange':
      return { title, detail: t('notifications.order.for', { amount: paid() }), amount: got('in') }
    case 'deposit':
      return { title, detail: t('notifications.detail.arrived'), amount: got('in') }
    case 'topUp': {
      const fee = text(data, 'fee_amount')
      const words = [t('activity.topUp.toCard', { amount: got() })]
      if (/[1-9]/.test(fee)) words.push(t('activity.topUp.fee', { amount: money(fee, from) }))
      return { title, detail: words.join(' · '), amount: paid('out') }
    }
    case 'send':
    case undefined:
      return { title, detail: t('notifications.order.sent'), amount: paid('out') }
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
