/*
 * The order event codes alone, with no imports: the app words them
 * (src/features/activity/wording.ts) without pulling TypeBox in with the
 * order schemas (contract/orders.ts re-exports them).
 */

/**
 * What an order event says, as a stable code the app words in its own
 * language (`note` is the same in English, for API users).
 */
export const ORDER_EVENT_CODES = [
  'PLACED',
  'FUNDS_HELD',
  'AWAITING_TRANSFER',
  'SENT_TO_BANK',
  'BROADCAST',
  'TRANSFER_RECEIVED',
  'PAID_OUT',
  'CONFIRMED_ON_CHAIN',
  'DELIVERED_TO_WALLET',
  'EXCHANGED',
  'TOPPED_UP',
  'RETURNED_ACCOUNT_CLOSED',
  'ADDRESS_REJECTED',
  'FIAT_ACCOUNT_INACTIVE',
  'REFUSED',
  'PROCESSING_FAILED',
  'CANCELED',
  'BANK_NOT_ANSWERING',
  'NETWORK_NOT_ANSWERING',
] as const
export type OrderEventCode = (typeof ORDER_EVENT_CODES)[number]
