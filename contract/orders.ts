import { type Static, Type } from '@sinclair/typebox'
import { CHAIN_IDS } from './catalog.ts'
import { DESTINATION_TYPES } from './counterparties.ts'
import { oneOf } from './enums.ts'
import { Amount } from './money.ts'
import { ORDER_EVENT_CODES } from './order-event-codes.ts'
import { HistoryPage, HistoryQuery, Page } from './pagination.ts'

/** docs/product.md §3: every order type. */
export const ORDER_TYPES = [
  'DEPOSIT_FIAT_SEPA',
  'DEPOSIT_FIAT_SWIFT',
  'WITHDRAWAL_FIAT_SEPA',
  'TRANSFER_CARD_PREPAID',
  'TRANSFER_CARD_SUBACCOUNT',
  'WITHDRAWAL_CRYPTO',
  'EXCHANGE_CRYPTO_INTERNAL',
  'TRANSFER_CARD_WHOLESALE',
] as const
export type OrderType = (typeof ORDER_TYPES)[number]

/**
 * docs/product.md §4. NEW (accepted, funds held) → PENDING (handed to the rail) →
 * COMPLETE; FAILED when the rail refuses, ERROR when processing broke and
 * gave up, CANCELED by the person (while NEW, or a deposit still awaiting its
 * transfer). The last four are final; failing, erring and cancelling release
 * the held funds.
 */
export const ORDER_STATUSES = ['NEW', 'PENDING', 'CANCELED', 'COMPLETE', 'ERROR', 'FAILED'] as const
export type OrderStatus = (typeof ORDER_STATUSES)[number]
export const FINAL_ORDER_STATUSES = ['CANCELED', 'COMPLETE', 'ERROR', 'FAILED'] as const

/** How a fee line is worked out. */
export const FEE_KINDS = ['FIXED', 'PERCENT', 'NETWORK'] as const
export type FeeKind = (typeof FEE_KINDS)[number]

const Uuid = Type.String({ format: 'uuid' })

/**
 * A firm quote's id: the quote itself, signed and expiring (issue 29), opaque
 * to clients. Orders placed before it have their quote's uuid.
 */
export const QuoteId = Type.String({ minLength: 1, maxLength: 4096, pattern: '^[A-Za-z0-9_.-]+$' })

export const MoneySide = Type.Object({
  currency_uuid: Uuid,
  currency: Type.String({ description: 'Code: EUR, USDT…' }),
  chain: Type.Union([oneOf(CHAIN_IDS), Type.Null()]),
  decimals: Type.Integer(),
  amount: Amount,
})
export type MoneySide = Static<typeof MoneySide>

/** One fee line. Every fee is charged in the `from` currency, on top of `from.amount`. */
export const FeeLine = Type.Object({
  kind: oneOf(FEE_KINDS),
  currency_uuid: Uuid,
  currency: Type.String(),
  amount: Amount,
  /** For PERCENT: the percentage applied ("0.5" = 0.5 %); null otherwise. */
  percent: Type.Union([Type.String(), Type.Null()]),
})
export type FeeLine = Static<typeof FeeLine>

/** Where an order's money goes (or, for a deposit, where it comes in). */
export const ORDER_TARGET_KINDS = [
  'bank_deposit',
  'counterparty',
  'address',
  'wallet',
  'fiat_account',
] as const
export const OrderTarget = Type.Object({
  kind: oneOf(ORDER_TARGET_KINDS),
  /** The wallet money lands in (exchange, internal crypto, deposits). */
  wallet_uuid: Type.Union([Uuid, Type.Null()]),
  counterparty_account_id: Type.Union([Uuid, Type.Null()]),
  counterparty_destination_id: Type.Union([Uuid, Type.Null()]),
  destination_type: Type.Union([oneOf(DESTINATION_TYPES), Type.Null()]),
  fiat_account_id: Type.Union([Uuid, Type.Null()]),
  chain: Type.Union([oneOf(CHAIN_IDS), Type.Null()]),
  address: Type.Union([Type.String(), Type.Null()]),
  /** What to show: "Anna Schmidt · DE89 … 3000", "bc1q…f3k9", "Prepaid card account". */
  display: Type.String(),
})
export type OrderTarget = Static<typeof OrderTarget>

/**
 * `GET /orders/calc`. Give exactly one of `amount_from` (what leaves the
 * source, before fees) and `amount_to` (what must arrive). Which target
 * fields an order type needs:
 *
 * | order_type               | from_uuid          | target                                            |
 * | ------------------------ | ------------------ | ------------------------------------------------- |
 * | DEPOSIT_FIAT_SEPA        | EUR                | wallet_uuid itself                                |
 * | DEPOSIT_FIAT_SWIFT       | EUR, USD or GBP    | wallet_uuid itself                                |
 * | WITHDRAWAL_FIAT_SEPA     | EUR                | destination_id (a SEPA destination)               |
 * | WITHDRAWAL_CRYPTO        | a coin or token    | destination_id (CRYPTO_*) or address              |
 * | EXCHANGE_CRYPTO_INTERNAL | any                | to_uuid (+ to_wallet_uuid, default the same)      |
 * | TRANSFER_CARD_PREPAID    | the account's fiat | fiat_account_id (a prepaid sub-account)           |
 * | TRANSFER_CARD_SUBACCOUNT | the account's fiat | fiat_account_id (a balance sub-account)           |
 * | TRANSFER_CARD_WHOLESALE  | USDT or USDC       | fiat_account_id (converted at the quoted rate)    |
 */
export const QuoteQuery = Type.Object({
  order_type: oneOf(ORDER_TYPES),
  /** The wallet paying (for a deposit: receiving). */
  wallet_uuid: Uuid,
  /** The currency paid. */
  from_uuid: Uuid,
  /** The currency received, when it differs (exchange). */
  to_uuid: Type.Optional(Uuid),
  amount_from: Type.Optional(Amount),
  amount_to: Type.Optional(Amount),
  destination_id: Type.Optional(Uuid),
  address: Type.Optional(Type.String({ minLength: 1, maxLength: 128 })),
  to_wallet_uuid: Type.Optional(Uuid),
  fiat_account_id: Type.Optional(Uuid),
})
export type QuoteQuery = Static<typeof QuoteQuery>

/**
 * A firm price, good until `expires_at` (30 s): the order placed with its
 * `quote_id` moves exactly these amounts. The source pays `total`
 * (= from.amount + every fee); the target receives `to.amount`
 * (= from.amount × rate, rounded down to the target currency's decimals).
 */
export const Quote = Type.Object({
  quote_id: QuoteId,
  order_type: oneOf(ORDER_TYPES),
  wallet_uuid: Uuid,
  from: MoneySide,
  to: MoneySide,
  /** Units of `to` per one unit of `from` ("1.00" when they are the same currency). */
  rate: Type.String(),
  fees: Type.Array(FeeLine),
  total: Amount,
  target: OrderTarget,
  expires_at: Type.String({ format: 'date-time' }),
  created_at: Type.String({ format: 'date-time' }),
})
export type Quote = Static<typeof Quote>

/**
 * `POST /orders/{order_type}`. The idempotency key is `request_id`, else the
 * `Idempotency-Key` header, else the quote itself (a quote places one order).
 * The same key with the same body answers the first answer again; with
 * another body, 409 IDEMPOTENCY_CONFLICT.
 */
export const PlaceOrderBody = Type.Object(
  {
    quote_id: QuoteId,
    request_id: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
    /** A note for the person's own history (and the payment reference of a bank payout). */
    note: Type.Optional(Type.String({ maxLength: 140 })),
  },
  { additionalProperties: false },
)
export type PlaceOrderBody = Static<typeof PlaceOrderBody>

/** Where to send a bank transfer for a DEPOSIT_FIAT_* order; `reference` must be on the transfer. */
export const DepositInstructions = Type.Object({
  beneficiary: Type.String(),
  iban: Type.Union([Type.String(), Type.Null()]),
  account_number: Type.Union([Type.String(), Type.Null()]),
  bic: Type.String(),
  bank_name: Type.String(),
  bank_address: Type.String(),
  reference: Type.String(),
  /** What to send: the quote's total, in its currency. */
  amount: Amount,
  currency: Type.String(),
})
export type DepositInstructions = Static<typeof DepositInstructions>

export { ORDER_EVENT_CODES, type OrderEventCode } from './order-event-codes.ts'

export const OrderEvent = Type.Object({
  status: oneOf(ORDER_STATUSES),
  code: oneOf(ORDER_EVENT_CODES),
  at: Type.String({ format: 'date-time' }),
  /** Why, when the status says little by itself: "Bank transfer received", "Address rejected by the network". */
  note: Type.Union([Type.String(), Type.Null()]),
})
export type OrderEvent = Static<typeof OrderEvent>

export const Order = Type.Object({
  id: Uuid,
  order_type: oneOf(ORDER_TYPES),
  status: oneOf(ORDER_STATUSES),
  wallet_uuid: Uuid,
  quote_id: QuoteId,
  request_id: Type.String(),
  from: MoneySide,
  to: MoneySide,
  rate: Type.String(),
  fees: Type.Array(FeeLine),
  total: Amount,
  target: OrderTarget,
  note: Type.Union([Type.String(), Type.Null()]),
  deposit_instructions: Type.Union([DepositInstructions, Type.Null()]),
  /** The chain's hash of a crypto withdrawal once broadcast. */
  tx_hash: Type.Union([Type.String(), Type.Null()]),
  /** Stable code of why it FAILED or hit ERROR (ADDRESS_REJECTED, ACCOUNT_CLOSED…); null otherwise. */
  failure_code: Type.Union([Type.String(), Type.Null()]),
  /**
   * Every status the order has had, oldest first. A status may repeat with a
   * note when something happened without a change ("The bank is not answering;
   * we keep asking").
   */
  timeline: Type.Array(OrderEvent),
  created_at: Type.String({ format: 'date-time' }),
  updated_at: Type.String({ format: 'date-time' }),
})
export type Order = Static<typeof Order>

/** `GET /orders` (v1, added: docs/product.md §7 names no history call — docs/decisions.md). Newest first. */
export const OrderQuery = Type.Composite([
  HistoryQuery,
  Type.Object({
    wallet_uuid: Type.Optional(Uuid),
    order_type: Type.Optional(oneOf(ORDER_TYPES)),
    status: Type.Optional(oneOf(ORDER_STATUSES)),
  }),
])
export type OrderQuery = Static<typeof OrderQuery>

export const OrderList = HistoryPage(Order)
export type OrderList = Static<typeof OrderList>

/** `GET /exchange/`: currency uuids; neither means every direction. */
export const ExchangeQuery = Type.Object({
  from_uuid: Type.Optional(Uuid),
  to_uuid: Type.Optional(Uuid),
  order_type: Type.Optional(oneOf(ORDER_TYPES)),
})
export type ExchangeQuery = Static<typeof ExchangeQuery>

/** One way money can be moved or converted, with an indicative (not firm) rate. */
export const ExchangeDirection = Type.Object({
  order_type: oneOf(ORDER_TYPES),
  from: Type.Object({
    currency_uuid: Uuid,
    currency: Type.String(),
    chain: Type.Union([oneOf(CHAIN_IDS), Type.Null()]),
  }),
  to: Type.Object({
    currency_uuid: Uuid,
    currency: Type.String(),
    chain: Type.Union([oneOf(CHAIN_IDS), Type.Null()]),
  }),
  rate: Type.String(),
  /** Bounds on `amount_from`, in the from currency. */
  min_amount: Amount,
  max_amount: Amount,
  fee_fixed: Amount,
  /** Percentage of from.amount ("0.5" = 0.5 %). */
  fee_percent: Type.String(),
  /** The network fee of a crypto withdrawal, in the from currency; null otherwise. */
  network_fee: Type.Union([Amount, Type.Null()]),
  as_of: Type.String({ format: 'date-time' }),
})
export type ExchangeDirection = Static<typeof ExchangeDirection>

export const ExchangeDirectionList = Page(ExchangeDirection)
export type ExchangeDirectionList = Static<typeof ExchangeDirectionList>

/**
 * `POST /api/sandbox/bank-transfers`: an incoming SEPA or SWIFT transfer
 * reaches the platform's bank account. A reference of a DEPOSIT_FIAT_* order
 * awaiting its transfer completes it (the amount must be the instructed one);
 * an unknown reference answers 422 REFERENCE_UNKNOWN, as a bank would return it.
 */
export const SandboxBankTransferBody = Type.Object(
  {
    reference: Type.String({ minLength: 1, maxLength: 64 }),
    amount: Amount,
    currency: Type.String({ minLength: 3, maxLength: 3 }),
    sender_name: Type.Optional(Type.String({ maxLength: 200 })),
    sender_iban: Type.Optional(Type.String({ maxLength: 64 })),
  },
  { additionalProperties: false },
)
export type SandboxBankTransferBody = Static<typeof SandboxBankTransferBody>

export const SandboxBankTransfer = Type.Object({
  id: Uuid,
  reference: Type.String(),
  amount: Amount,
  currency: Type.String(),
  order_id: Uuid,
  received_at: Type.String({ format: 'date-time' }),
})
export type SandboxBankTransfer = Static<typeof SandboxBankTransfer>
