import { orderKindOf } from '../../../contract/display-rules.ts'
import type { EventKind } from '../../../contract/events.ts'
import { formatAmount } from '../format-amount.ts'
import {
  autoTopUpMessage,
  controlDeclineLine,
  disputeMessage,
  lockdownMessage,
} from './control-wording.ts'
import { type Data, known, type Language, line, text, WORDS, type Words } from './message-words.ts'
import { orderLine, orderTitle } from './order-message.ts'

/*
 * What a push notification and a bot message say (issue 27): the activity
 * feed's words — who, what, how much — in the person's language, never the
 * ledger's ("Order completed €50.00 → €50.00"). The notification centre says
 * the same from the same payload in the app's catalogues
 * (src/features/notifications/describe.ts); a test holds each kind of both
 * to a table. Nothing here is cut: a push shows what fits, a bot message all.
 */

/** What a push notification or a bot message says, in the person's language. */
export function eventMessage(
  kind: EventKind,
  data: Data,
  language: Language,
): { title: string; body: string } {
  const words = WORDS[language]
  const money = (key: string, sign?: 'in' | 'out') =>
    formatAmount(language, text(data, key), text(data, 'currency'), sign)
  const card = (sign?: 'in' | 'out') => money('amount', sign)
  const merchant = text(data, 'merchant_name')
  switch (kind) {
    case 'card.authorization.approved':
      return { title: merchant || words.cardPayment, body: line(card('out'), words.cardPayment) }
    case 'card.authorization.declined':
      return {
        title: merchant || words.cardPayment,
        body: line(
          card(),
          known(words.declines, text(data, 'reason')) ??
            controlDeclineLine(data, language) ??
            words.declined,
        ),
      }
    case 'card.authorization.reversed':
      return { title: merchant || words.cardPayment, body: line(card(), words.cardReversed) }
    case 'card.transaction.settled':
      return { title: merchant || words.cardPayment, body: line(card('out'), words.cardSettled) }
    case 'card.transaction.refunded':
      return { title: merchant || words.cardRefund, body: line(card('in'), words.cardRefund) }
    case 'card.closed': {
      const returned = formatAmount(
        language,
        text(data, 'returned_amount'),
        text(data, 'currency'),
        'in',
      )
      return {
        title: words.cardClosed(text(data, 'last4')),
        body: text(data, 'returned_amount') ? words.cardReturned(returned) : words.cardClosedLine,
      }
    }
    case 'card.fee.charged': {
      const title = data.fee_kind === 'ISSUE' ? words.feeIssue : words.feeMonthly
      if (data.paid === false) return { title, body: line(card(), words.feeDeclined) }
      return { title, body: card('out') }
    }
    case 'deposit.detected':
      return {
        title: words.deposit(text(data, 'currency')),
        body: line(card(), words.onItsWay),
      }
    case 'deposit.confirmed':
      return {
        title: words.deposit(text(data, 'currency')),
        body: line(card('in'), words.arrived),
      }
    case 'fiat.credit.received': {
      const sender = text(data, 'sender_name')
      return {
        title: sender ? words.from(sender) : words.bankIn,
        body: line(card('in'), text(data, 'remittance') || words.arrived),
      }
    }
    case 'order.created':
    case 'order.completed':
    case 'order.failed':
    case 'order.canceled': {
      const order = orderKindOf(text(data, 'type'))
      const title = orderTitle(words, order, data)
      if (kind === 'order.completed')
        return { title, body: orderLine(words, language, order, data) }
      const amount = formatAmount(language, text(data, 'from_amount'), text(data, 'from_currency'))
      if (kind === 'order.created') {
        // A deposit holds nothing: it waits for the transfer its reference names.
        const reference = text(data, 'deposit_reference')
        if (reference) return { title, body: line(amount, words.awaitingTransfer(reference)) }
        return { title, body: line(amount, words.placed) }
      }
      if (kind === 'order.canceled') return { title, body: line(amount, words.canceled) }
      return {
        title,
        body: line(amount, known(words.failures, text(data, 'reason')) ?? words.failed),
      }
    }
    case 'kyc.status_changed':
      return { title: words.identity, body: kycLine(words, text(data, 'status')) }
    case 'security.sign_in_new_device':
      return { title: words.newDevice, body: words.newDeviceLine }
    case 'security.password_changed':
      return { title: words.passwordChanged, body: words.passwordChangedLine }
    case 'security.api_key_created':
      return { title: words.apiKey, body: text(data, 'name') }
    case 'security.api_key_changed':
      return {
        title: data.change === 'rotated' ? words.apiKeyRotated : words.apiKeyChanged,
        body: text(data, 'name'),
      }
    case 'security.webhook_endpoint_added':
      return { title: words.webhookAdded, body: text(data, 'url') }
    case 'security.webhook_endpoint_changed':
      return {
        title: data.change === 'secret' ? words.webhookSecret : words.webhookUrl,
        body: text(data, 'url'),
      }
    case 'security.push_subscription_added':
      return { title: words.pushOn, body: text(data, 'device') || words.newDeviceName }
    case 'security.passkey_added':
      return { title: words.passkeyAdded, body: text(data, 'name') }
    case 'security.passkey_removed':
      return { title: words.passkeyRemoved, body: text(data, 'name') }
    case 'security.contact_changed':
      return {
        title: data.contact === 'email' ? words.emailChanged : words.phoneChanged,
        body: words.now(text(data, 'masked')),
      }
    case 'card.issued':
      return { title: words.cardIssued, body: issuedCard(words, data) }
    case 'transfer.sent':
      return data.status === 'AWAITING_CLAIM'
        ? { title: words.waitingFor(card(), text(data, 'to_name')), body: words.waitingLine }
        : { title: words.youSent(text(data, 'to_name'), card()), body: text(data, 'note') }
    case 'transfer.received':
      return {
        title: words.sentYou(text(data, 'from_name'), card()),
        body: text(data, 'note') || words.inYourWallet,
      }
    case 'transfer.claimed':
      return {
        title: words.gotYour(text(data, 'to_name'), card()),
        body: text(data, 'note') || words.claimedLine,
      }
    case 'transfer.returned':
      return { title: words.cameBack(card()), body: words.notClaimed(text(data, 'to_name')) }
    case 'payment_request.paid':
      return {
        title: words.paidRequest(text(data, 'payer_name'), card()),
        body: text(data, 'note') || words.inYourWallet,
      }
    case 'schedule.run_failed':
    case 'schedule.run_skipped':
      return {
        title: kind === 'schedule.run_failed' ? words.runFailed : words.runSkipped,
        body: runLine(words, text(data, 'reason'), card()),
      }
    case 'card.dispute.updated':
      return disputeMessage(data, language, money)
    case 'card.auto_top_up.placed':
    case 'card.auto_top_up.failed':
      return autoTopUpMessage(kind, data, language, money)
    case 'security.lockdown':
      return lockdownMessage(data, language)
  }
}

/** Why a scheduled run moved nothing, and that the schedule goes on. */
function runLine(words: Words, reason: string, amount: string): string {
  switch (reason) {
    case 'INSUFFICIENT_FUNDS':
      return words.runShort(amount)
    case 'PRICE_MOVED':
      return words.runPriceMoved
    default:
      return words.runRefused(reason)
  }
}

/** "Physical card ·· 4242, sent to London, GB", as the notification centre says it. */
function issuedCard(words: Words, data: Data): string {
  const last4 = text(data, 'last4')
  if (data.form_factor !== 'PHYSICAL') return words.virtualCard(last4)
  const to = text(data, 'delivery_to')
  return to ? words.deliveryTo(words.physicalCard(last4), to) : words.physicalCard(last4)
}

function kycLine(words: Words, status: string): string {
  switch (status) {
    case 'APPROVED':
      return words.kycApproved
    case 'PENDING':
    case 'HOLD':
      return words.kycPending
    default:
      return words.kycAttention
  }
}

/** The button under a bot message. */
export const openButtonText = (language: Language) => WORDS[language].open
