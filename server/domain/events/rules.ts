import { p256 } from '@noble/curves/nist.js'
import type { EventKind } from '../../../contract/events.ts'
import { wayOutLine } from './control-wording.ts'
import { type Language, WORDS } from './message-words.ts'
import { eventMessage } from './messages.ts'

/**
 * Pure rules of the event pipeline: which screen an event is about, who may
 * hear it, how deliveries retry, what a security event's e-mail adds and which
 * push keys a browser could have made. What a push or bot message says is
 * messages.ts.
 */

type Data = Record<string, unknown>
const text = (data: Data, key: string) => String(data[key] ?? '')
const seg = encodeURIComponent

/** The app screen an event opens (the notification centre, a push tap, the bot's button). */
export function eventPath(kind: EventKind, data: Data): string {
  switch (kind) {
    case 'card.authorization.approved':
    case 'card.authorization.declined':
    case 'card.authorization.reversed':
    case 'card.transaction.settled':
    case 'card.transaction.refunded':
    case 'card.issued':
    case 'card.fee.charged':
    case 'card.closed':
      return `/cards/${seg(text(data, 'card_id'))}`
    // The disputed payment, where its status and steps show.
    case 'card.dispute.updated':
      return typeof data.activity_id === 'string'
        ? `/activity/${seg(data.activity_id)}`
        : `/cards/${seg(text(data, 'card_id'))}`
    case 'card.auto_top_up.placed':
    case 'card.auto_top_up.failed':
      return `/accounts/${seg(text(data, 'fiat_account_id'))}`
    case 'deposit.detected':
    case 'deposit.confirmed':
      return `/wallets/${seg(text(data, 'wallet_id'))}/transactions/${seg(text(data, 'transaction_id'))}`
    case 'fiat.credit.received':
      return `/accounts/${seg(text(data, 'fiat_account_id'))}`
    case 'order.created':
    case 'order.completed':
    case 'order.failed':
    case 'order.canceled':
      return `/orders/${seg(text(data, 'order_id'))}`
    case 'kyc.status_changed':
      return '/verify'
    case 'security.api_key_created':
    case 'security.api_key_changed':
    case 'security.webhook_endpoint_added':
    case 'security.webhook_endpoint_changed':
      return '/developer'
    // Where the password is changed, devices are seen and other sessions are signed out.
    case 'security.push_subscription_added':
    case 'security.sign_in_new_device':
    case 'security.password_changed':
    case 'security.passkey_added':
    case 'security.passkey_removed':
    case 'security.lockdown':
      return '/profile/security'
    case 'security.contact_changed':
      return '/profile'
    // Each person's own item of the transfer: their words, their wallet.
    case 'transfer.sent':
    case 'transfer.received':
    case 'transfer.claimed':
    case 'transfer.returned':
    case 'payment_request.paid':
      return `/activity/${seg(text(data, 'activity_id'))}`
    case 'schedule.run_failed':
    case 'schedule.run_skipped':
      return `/schedules/${seg(text(data, 'schedule_id'))}`
  }
}

/**
 * The e-mail of a security event (alwaysTold kinds): the push message's words,
 * where to look, and what to do if it was not the person — the channel a thief
 * holding a token controls least, so it says how to take the account back.
 */
export function securityEmail(
  kind: EventKind,
  data: Data,
  language: Language,
  link: string,
  /** The one-time lockdown link, when the alert can mean theft (issue 30). */
  lockdownLink?: string,
): { subject: string; body: string } {
  const { title, body } = eventMessage(kind, data, language)
  const words = WORDS[language]
  return {
    subject: `Finplatform: ${title}`,
    body: [
      title,
      body,
      '',
      words.seeIt(link),
      '',
      ...(lockdownLink ? [wayOutLine(language, lockdownLink), ''] : []),
      words.securityAdvice,
    ].join('\n'),
  }
}

/** Base64url as PushSubscription.toJSON writes it; `=` padding tolerated. */
const BASE64URL = /^[A-Za-z0-9_-]*={0,2}$/
const decode = (text: string) =>
  BASE64URL.test(text) ? Buffer.from(text.replace(/=+$/, ''), 'base64url') : undefined

/** A push subscription's key that cannot be one, and why. */
export interface PushKeyProblem {
  key: 'p256dh' | 'auth'
  message: string
}

/**
 * What is wrong with a push subscription's keys (RFC 8291 §3), or undefined:
 * `p256dh` the browser's P-256 public key, uncompressed (65 bytes, 0x04, a
 * point on the curve), `auth` its 16-byte secret. Checked when the browser
 * subscribes, so a key no browser made is refused then, not at every push.
 */
export function pushKeysProblem(keys: {
  p256dh: string
  auth: string
}): PushKeyProblem | undefined {
  const point = decode(keys.p256dh)
  if (point?.length !== 65 || point[0] !== 0x04) {
    return {
      key: 'p256dh',
      message: 'must be an uncompressed P-256 public key (65 bytes, base64url)',
    }
  }
  try {
    p256.Point.fromBytes(point)
  } catch {
    return { key: 'p256dh', message: 'is not a point on the P-256 curve' }
  }
  if (decode(keys.auth)?.length !== 16) {
    return { key: 'auth', message: 'must be 16 bytes, base64url' }
  }
  return undefined
}

/** An endpoint hears a kind when it is enabled and lists it (an empty list: every kind). */
export const endpointWants = (
  endpoint: { enabled: boolean; event_kinds: readonly string[] },
  kind: EventKind,
) => endpoint.enabled && (endpoint.event_kinds.length === 0 || endpoint.event_kinds.includes(kind))

/** Tries of one delivery before it is given up as failed (about 17 minutes of backoff). */
export const MAX_DELIVERY_ATTEMPTS = 8

/** Delay before the next try after the n-th failed one: 5 s, 10 s, 20 s … capped at 10 minutes. */
export const deliveryBackoffMs = (attempt: number) =>
  Math.min(5_000 * 2 ** Math.max(0, attempt - 1), 10 * 60_000)
