import type { EventKind } from '../../../contract/events.ts'

/**
 * Pure rules of the event pipeline: which screen an event is about, who may
 * hear it, and how deliveries retry. What a push or bot message says is
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
    case 'card.transaction.settled':
    case 'card.transaction.refunded':
      return `/cards/${seg(text(data, 'card_id'))}`
    case 'deposit.detected':
    case 'deposit.confirmed':
      return `/wallets/${seg(text(data, 'wallet_id'))}/transactions/${seg(text(data, 'transaction_id'))}`
    case 'order.completed':
    case 'order.failed':
      return `/orders/${seg(text(data, 'order_id'))}`
    case 'kyc.status_changed':
      return '/verify'
    case 'security.api_key_created':
      return '/developer'
    case 'security.sign_in_new_device':
    case 'security.contact_changed':
      return '/profile'
  }
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

/** "ada@example.com" → "a***@example.com": enough to recognise, not to harvest. */
export function maskEmail(email: string): string {
  const at = email.lastIndexOf('@')
  if (at <= 0) return '***'
  return `${email[0]}***${email.slice(at)}`
}

/** "+4915112345678" → "+49 *** 78". */
export function maskPhone(phone: string): string {
  const digits = phone.replace(/\D/g, '')
  if (digits.length < 5) return '***'
  return `+${digits.slice(0, 2)} *** ${digits.slice(-2)}`
}
