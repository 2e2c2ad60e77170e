/**
 * How both sides word what happened, with nothing imported but types: the
 * app takes these without shipping TypeBox, and the server's push and bot
 * messages (server/domain/events/messages.ts) say what the app's screens say.
 */
import type { ORDER_TYPES } from './orders.ts'

type OrderType = (typeof ORDER_TYPES)[number]

/** Which money action an order is: the words around its amounts follow it. */
export type OrderKind = 'send' | 'exchange' | 'deposit' | 'topUp'
export const ORDER_KINDS: Record<OrderType, OrderKind> = {
  DEPOSIT_FIAT_SEPA: 'deposit',
  DEPOSIT_FIAT_SWIFT: 'deposit',
  WITHDRAWAL_FIAT_SEPA: 'send',
  WITHDRAWAL_CRYPTO: 'send',
  EXCHANGE_CRYPTO_INTERNAL: 'exchange',
  TRANSFER_CARD_PREPAID: 'topUp',
  TRANSFER_CARD_SUBACCOUNT: 'topUp',
  TRANSFER_CARD_WHOLESALE: 'topUp',
}

/** An order type read from stored data (an event's payload): undefined when this version does not know it. */
export const orderKindOf = (type: string): OrderKind | undefined =>
  Object.hasOwn(ORDER_KINDS, type) ? ORDER_KINDS[type as OrderType] : undefined

/** A chain address shortened in the middle ("0x52f1…9a3c"), where a name would stand; the full value is on copy. */
export function shortAddress(address: string): string {
  if (address.length <= 14) return address
  return `${address.slice(0, 6)}…${address.slice(-4)}`
}

/**
 * Issue 32: how long a payment to a contact who is not a customer yet waits
 * for them to sign up before it goes back (the app says it before sending).
 */
export const CLAIM_DAYS = 7

/** Issue 32: `startapp=pr_<id>` — how a Telegram link names a payment request. */
export const REQUEST_START_PREFIX = 'pr_'
