import { ORDER_KINDS, type OrderKind } from '../../../contract/display-rules.ts'
import type { FeeKind, OrderEventCode, OrderStatus, OrderType } from '../../../contract/orders.ts'
import type { MessageKey } from '../../i18n/en.ts'
import type { Translate } from '../../i18n/i18n.tsx'

/*
 * The docs/product.md §3–§4 order enumerations as the app lists them: Records over
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

export type { OrderKind }
/** Which money action an order type belongs to: the words around its amounts follow it. */
export const orderKind = (type: OrderType) => ORDER_KINDS[type]

/**
 * What an order's page says first, for its kind and where it stands: a bank
 * deposit asks for the transfer only while it waits for it — once the money
 * is in, asking again could make someone pay twice.
 */
const HEADLINES: Record<OrderKind, Record<'NEW' | 'PENDING' | 'COMPLETE', MessageKey>> = {
  send: {
    NEW: 'orders.result.send',
    PENDING: 'orders.result.sendMoving',
    COMPLETE: 'orders.result.sendDone',
  },
  exchange: {
    NEW: 'orders.result.exchange',
    PENDING: 'orders.result.exchangeMoving',
    COMPLETE: 'orders.result.exchangeDone',
  },
  // A deposit waits for the person's transfer both while NEW and PENDING (AWAITING_TRANSFER).
  deposit: {
    NEW: 'orders.result.deposit',
    PENDING: 'orders.result.deposit',
    COMPLETE: 'orders.result.depositDone',
  },
  topUp: {
    NEW: 'orders.result.topUp',
    PENDING: 'orders.result.topUpMoving',
    COMPLETE: 'orders.result.topUpDone',
  },
}
export function orderHeadline(type: OrderType, status: OrderStatus): MessageKey {
  switch (status) {
    case 'CANCELED':
      return 'orders.result.canceled'
    case 'FAILED':
    case 'ERROR':
      return 'orders.result.failed'
    case 'NEW':
    case 'PENDING':
    case 'COMPLETE':
      return HEADLINES[orderKind(type)][status]
  }
}

/** "You send" / "They receive" and the total's name, as the action has them. */
export const sideLabels = (t: Translate, kind: OrderKind) => ({
  pay: t(`orders.${kind}.pay`),
  receive: t(`orders.${kind}.receive`),
  total: t(kind === 'deposit' ? 'orders.deposit.total' : 'orders.quote.total'),
})

export { walletName } from '../../i18n/wallet-names.ts'

/**
 * What each timeline event says (contract OrderEvent.code), in the app's
 * words: the server's `note` is English for API users and never shown.
 */
const EVENTS: Record<OrderEventCode, MessageKey> = {
  PLACED: 'orders.event.PLACED',
  FUNDS_HELD: 'orders.event.FUNDS_HELD',
  AWAITING_TRANSFER: 'orders.event.AWAITING_TRANSFER',
  SENT_TO_BANK: 'orders.event.SENT_TO_BANK',
  BROADCAST: 'orders.event.BROADCAST',
  TRANSFER_RECEIVED: 'orders.event.TRANSFER_RECEIVED',
  PAID_OUT: 'orders.event.PAID_OUT',
  CONFIRMED_ON_CHAIN: 'orders.event.CONFIRMED_ON_CHAIN',
  DELIVERED_TO_WALLET: 'orders.event.DELIVERED_TO_WALLET',
  EXCHANGED: 'orders.event.EXCHANGED',
  TOPPED_UP: 'orders.event.TOPPED_UP',
  RETURNED_ACCOUNT_CLOSED: 'orders.event.RETURNED_ACCOUNT_CLOSED',
  ADDRESS_REJECTED: 'orders.event.ADDRESS_REJECTED',
  FIAT_ACCOUNT_INACTIVE: 'orders.event.FIAT_ACCOUNT_INACTIVE',
  REFUSED: 'orders.event.REFUSED',
  PROCESSING_FAILED: 'orders.event.PROCESSING_FAILED',
  CANCELED: 'orders.event.CANCELED',
  BANK_NOT_ANSWERING: 'orders.event.BANK_NOT_ANSWERING',
  NETWORK_NOT_ANSWERING: 'orders.event.NETWORK_NOT_ANSWERING',
}
/** An event's sentence; none for a code this app does not know yet (a newer server). */
export const eventText = (t: Translate, code: OrderEventCode): string | undefined => {
  const key = EVENTS[code] as MessageKey | undefined
  return key && t(key)
}
