import type { FeeKind, OrderStatus, OrderType } from '../../../contract/orders.ts'
import type { MessageKey } from '../../i18n/en.ts'
import type { Translate } from '../../i18n/i18n.tsx'

/*
 * The SPEC.md §3–§4 order enumerations as the app lists them: Records over
 * the contract's types (the contract's arrays are TypeBox values the app must
 * not ship), so a value added to the contract is a type error here until it
 * is listed and labelled.
 */
const keysOf = <K extends string>(record: Record<K, unknown>) => Object.keys(record) as K[]

/** Whether a status is the end: the order will not change any more. */
const FINAL: Record<OrderStatus, boolean> = {
  NEW: false,
  PENDING: false,
  COMPLETE: true,
  FAILED: true,
  ERROR: true,
  CANCELED: true,
}
export const ORDER_STATUSES = keysOf(FINAL)
export const isFinal = (status: OrderStatus) => FINAL[status]

/** How the person should read the end: done, or money back (FAILED, ERROR, CANCELED). */
export const statusTone = (status: OrderStatus): 'progress' | 'success' | 'failure' =>
  status === 'COMPLETE' ? 'success' : FINAL[status] ? 'failure' : 'progress'

const DEPOSIT: Record<OrderType, boolean> = {
  DEPOSIT_FIAT_SEPA: true,
  DEPOSIT_FIAT_SWIFT: true,
  WITHDRAWAL_FIAT_SEPA: false,
  TRANSFER_CARD_PREPAID: false,
  TRANSFER_CARD_SUBACCOUNT: false,
  WITHDRAWAL_CRYPTO: false,
  EXCHANGE_CRYPTO_INTERNAL: false,
  TRANSFER_CARD_WHOLESALE: false,
}
export const ORDER_TYPES = keysOf(DEPOSIT)
export const isDeposit = (type: OrderType) => DEPOSIT[type]

/**
 * Whether the person may still cancel (contract Order): while NEW, or a
 * deposit still waiting for its bank transfer. The server has the last word
 * (409 when it moved on meanwhile).
 */
export const isCancellable = (order: { status: OrderStatus; order_type: OrderType }) =>
  order.status === 'NEW' || (order.status === 'PENDING' && isDeposit(order.order_type))

export const orderStatusLabel = (t: Translate, status: OrderStatus) => t(`orders.status.${status}`)
export const orderTypeLabel = (t: Translate, type: OrderType) => t(`orders.type.${type}`)

const FEE_KEYS: Record<FeeKind, MessageKey> = {
  FIXED: 'orders.fee.FIXED',
  PERCENT: 'orders.fee.PERCENT',
  NETWORK: 'orders.fee.NETWORK',
}
export const feeLabel = (t: Translate, kind: FeeKind, percent: string) =>
  t(FEE_KEYS[kind], { percent })

/** Failure codes the server names (contract Order.failure_code) with a sentence of their own. */
const FAILURES: Record<string, MessageKey> = {
  ADDRESS_REJECTED: 'orders.failure.ADDRESS_REJECTED',
  ACCOUNT_CLOSED: 'orders.failure.ACCOUNT_CLOSED',
}
export const failureText = (t: Translate, code: string) =>
  t(FAILURES[code] ?? 'orders.failure.other')

/** Which money action an order type belongs to: the words around its amounts follow it. */
export type OrderKind = 'send' | 'exchange' | 'deposit' | 'topUp'
const KIND: Record<OrderType, OrderKind> = {
  DEPOSIT_FIAT_SEPA: 'deposit',
  DEPOSIT_FIAT_SWIFT: 'deposit',
  WITHDRAWAL_FIAT_SEPA: 'send',
  WITHDRAWAL_CRYPTO: 'send',
  EXCHANGE_CRYPTO_INTERNAL: 'exchange',
  TRANSFER_CARD_PREPAID: 'topUp',
  TRANSFER_CARD_SUBACCOUNT: 'topUp',
  TRANSFER_CARD_WHOLESALE: 'topUp',
}
export const orderKind = (type: OrderType) => KIND[type]

/** "You send" / "They receive" and the total's name, as the action has them. */
export const sideLabels = (t: Translate, kind: OrderKind) => ({
  pay: t(`orders.${kind}.pay`),
  receive: t(`orders.${kind}.receive`),
  total: t(kind === 'deposit' ? 'orders.deposit.total' : 'orders.quote.total'),
})
