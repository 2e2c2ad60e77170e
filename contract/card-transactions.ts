import { type Static, Type } from '@sinclair/typebox'
import { CARD_CHANNELS } from './card-choices.ts'
import { oneOf } from './enums.ts'
import { Amount } from './money.ts'
import { HistoryPage, HistoryQuery } from './pagination.ts'

/** docs/product.md §3 */
export const CARD_TRANSACTION_TYPES = [
  'AUTHORIZATION',
  'CLEARING',
  'REFUND',
  'REVERSAL',
  'ORIGINAL_CREDIT',
  'FEE',
  'DEPOSIT',
  'WITHDRAWAL',
] as const
export type CardTransactionType = (typeof CARD_TRANSACTION_TYPES)[number]

/**
 * APPROVED: an authorisation holding its amount. SETTLED: an authorisation
 * once cleared, and every clearing, reversal and refund. REVERSED: an
 * authorisation whose hold was released. DECLINED: refused, no money moved.
 */
export const CARD_TRANSACTION_STATUSES = ['APPROVED', 'DECLINED', 'SETTLED', 'REVERSED'] as const
export type CardTransactionStatus = (typeof CARD_TRANSACTION_STATUSES)[number]

/** Why an authorisation was declined. */
export const DECLINE_REASONS = [
  'CARD_FROZEN',
  'CARD_BLOCKED',
  'CARD_INACTIVE',
  'CARD_CANCELED',
  'CARD_CLOSED',
  /** The card's fiat account is not ACTIVE. */
  'ACCOUNT_UNAVAILABLE',
  /** Over one of the card's limits: `exceeded_limit` says which. */
  'LIMIT_EXCEEDED',
  /** More than the fiat account's balance. */
  'INSUFFICIENT_FUNDS',
  /**
   * The 3-D Secure code was not the card's current one-time code (wrong,
   * used or expired), or the card took too many wrong codes lately.
   */
  'THREE_DS_FAILED',
  /** The card's controls (contract/card-controls.ts) refuse how it was used: `channel` says how. */
  'CHANNEL_BLOCKED',
  /** The merchant's category group is blocked on the card. */
  'CATEGORY_BLOCKED',
  /** The merchant's country is blocked, or not among the allowed ones. */
  'COUNTRY_BLOCKED',
  /** The merchant's name is blocked on the card. */
  'MERCHANT_BLOCKED',
  /** Over a category limit of the card: `exceeded_limit` says which window. */
  'CATEGORY_LIMIT_EXCEEDED',
] as const
export type DeclineReason = (typeof DECLINE_REASONS)[number]

export const CARD_LIMIT_KINDS = ['per_transaction', 'daily', 'monthly'] as const
export type CardLimitKind = (typeof CARD_LIMIT_KINDS)[number]

/** A FEE's kind: the program's fee on issuing the card, or its monthly fee. */
export const CARD_FEE_KINDS = ['ISSUE', 'MONTHLY'] as const
export type CardFeeKind = (typeof CARD_FEE_KINDS)[number]

const uuid = Type.String({ format: 'uuid' })

/** Where the card was used. */
export const Merchant = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 100 }),
    /** ISO 18245 merchant category code, 4 digits. */
    mcc: Type.String({ pattern: '^[0-9]{4}$' }),
    city: Type.String({ maxLength: 100 }),
    /** ISO 3166-1 alpha-2. */
    country: Type.String({ pattern: '^[A-Z]{2}$' }),
  },
  { additionalProperties: false },
)
export type Merchant = Static<typeof Merchant>

/**
 * One card transaction, in the currency of the card's fiat account; the
 * amount is always positive (the type says which way money went).
 * `authorization_id` links a clearing, a reversal or a refund to the
 * authorisation it follows, so the two read as one purchase.
 *
 * `card_id` and `card_last4` are null for a record of the fiat account
 * itself: the DEPOSIT of a top-up (TRANSFER_CARD_* order) lands on the
 * account, not on one of its cards. A FEE carries `fee_kind` (ISSUE or
 * MONTHLY); a monthly fee the account could not pay is DECLINED with
 * INSUFFICIENT_FUNDS.
 */
export const CardTransaction = Type.Object({
  id: uuid,
  card_id: Type.Union([uuid, Type.Null()]),
  card_last4: Type.Union([Type.String({ pattern: '^[0-9]{4}$' }), Type.Null()]),
  fiat_account_id: uuid,
  wallet_uuid: uuid,
  type: oneOf(CARD_TRANSACTION_TYPES),
  status: oneOf(CARD_TRANSACTION_STATUSES),
  amount: Amount,
  currency: Type.String(),
  currency_uuid: uuid,
  merchant: Type.Union([Merchant, Type.Null()]),
  decline_reason: Type.Union([oneOf(DECLINE_REASONS), Type.Null()]),
  /**
   * With LIMIT_EXCEEDED: the first limit the amount would break; with
   * CATEGORY_LIMIT_EXCEEDED, the window of the category's limit (a payment,
   * the day, the month).
   */
  exceeded_limit: Type.Union([oneOf(CARD_LIMIT_KINDS), Type.Null()]),
  /** An authorisation's channel: how the card was presented; null for every other record. */
  channel: Type.Union([oneOf(CARD_CHANNELS), Type.Null()]),
  authorization_id: Type.Union([uuid, Type.Null()]),
  /** FEE records only. */
  fee_kind: Type.Optional(oneOf(CARD_FEE_KINDS)),
  /** The activity feed item it belongs to (a clearing or refund: its purchase's); null if none. */
  activity_id: Type.Union([uuid, Type.Null()]),
  created_at: Type.String({ format: 'date-time' }),
  updated_at: Type.String({ format: 'date-time' }),
})
export type CardTransaction = Static<typeof CardTransaction>

export const CardTransactionList = HistoryPage(CardTransaction)
export type CardTransactionList = Static<typeof CardTransactionList>

/**
 * `GET /api/v1/issuing/transactions/`: the caller's card transactions, newest
 * first, narrowed to one card and/or one fiat account. `new_scheme` is
 * accepted for compatibility; the answer is always this scheme.
 */
export const CardTransactionQuery = Type.Composite([
  HistoryQuery,
  Type.Object({
    card_id: Type.Optional(uuid),
    fiat_account_id: Type.Optional(uuid),
    new_scheme: Type.Optional(Type.Boolean()),
  }),
])
export type CardTransactionQuery = Static<typeof CardTransactionQuery>

/** `GET /api/v1/issuing/transactions/csv?card_id=` */
export const CardTransactionCsvQuery = Type.Object({ card_id: uuid })

/** The card processor's messages the sandbox accepts. */
export const PROCESSOR_MESSAGE_TYPES = ['AUTHORIZATION', 'CLEARING', 'REVERSAL', 'REFUND'] as const

/**
 * `POST /api/sandbox/card-transactions`: what the card network would send.
 * AUTHORIZATION needs `merchant`; CLEARING (at most the authorised amount;
 * the rest is released), REVERSAL (exactly the authorised amount) and REFUND
 * (at most what was cleared, less earlier refunds) need `authorization_id`
 * and take the authorisation's merchant when none is sent. `currency` is the
 * code of the card account's currency.
 *
 * `network_message_id` (optional) is the network's id of the message, unique
 * per card: the same message again answers the stored record (200, header
 * `Idempotent-Replayed: true`) and moves nothing; another message under the
 * same id is 409 IDEMPOTENCY_CONFLICT.
 *
 * `three_ds_code` (AUTHORIZATION only) is the 3-D Secure code the cardholder
 * typed: the card's one-time code (`GET /vcards/cards/{id}/sensitive/otp`).
 *
 * `channel` (AUTHORIZATION only; default `chip`) is how the card was
 * presented, which the card's controls may refuse (CHANNEL_BLOCKED).
 */
export const ProcessorMessageBody = Type.Object(
  {
    card_id: uuid,
    type: oneOf(PROCESSOR_MESSAGE_TYPES),
    amount: Amount,
    currency: Type.String({ minLength: 1, maxLength: 20 }),
    merchant: Type.Optional(Merchant),
    authorization_id: Type.Optional(uuid),
    network_message_id: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
    three_ds_code: Type.Optional(Type.String({ pattern: '^[0-9]{6}$' })),
    /** AUTHORIZATION only: how the card was presented; default `chip`. */
    channel: Type.Optional(oneOf(CARD_CHANNELS)),
  },
  { additionalProperties: false },
)
export type ProcessorMessageBody = Static<typeof ProcessorMessageBody>
