import { orderKindOf, shortAddress } from '../../../contract/display-rules.ts'
import type { MessageKey } from '../../i18n/en.ts'
import type { Translate } from '../../i18n/i18n.tsx'
import type { MoneySign } from '../../i18n/money.ts'
import { type Data, type Description, text } from './payload.ts'

/** An order's events: each titled as the order's feed item is. */
export type OrderKind = 'order.created' | 'order.completed' | 'order.failed' | 'order.canceled'

/** Why an order failed, in a sentence that says where the money is (the server's messages.ts says the same). */
const ORDER_FAILURES: Record<string, MessageKey> = {
  ADDRESS_REJECTED: 'notifications.orderFailed.ADDRESS_REJECTED',
  ACCOUNT_CLOSED: 'notifications.orderFailed.ACCOUNT_CLOSED',
}

/** An order's outcome as its activity item reads: "To Anna Schmidt", "Sent", "−€51.00". */
export function describeOrder(
  told: OrderKind,
  data: Data,
  t: Translate,
  money: (amount: string, currency: string, sign?: MoneySign) => string,
): Description {
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
