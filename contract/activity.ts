import { type Static, type TSchema, Type } from '@sinclair/typebox'
import { ACTIVITY_TYPES } from './activity-types.ts'
import { CARD_CHANNELS, DISPUTE_STATUSES } from './card-choices.ts'
import { CARD_FEE_KINDS, CardTransaction, Merchant } from './card-transactions.ts'
import { oneOf } from './enums.ts'
import { MoneySide, ORDER_EVENT_CODES, ORDER_TYPES } from './orders.ts'
import { WalletTransaction } from './wallets.ts'

export { ACTIVITY_TYPES, type ActivityType } from './activity-types.ts'

/**
 * - `pending`: under way (an order not yet settled, a deposit confirming, a
 *   card payment authorised and holding its amount);
 * - `complete`: done (a card payment: settled, perhaps partly refunded);
 * - `failed`: the rail refused it or it broke; anything held came back;
 * - `canceled`: cancelled by the person;
 * - `declined`: a card payment or fee the card or account refused;
 * - `reversed`: a card payment released without being charged;
 * - `refunded`: a card payment refunded in full.
 */
export const ACTIVITY_STATUSES = [
  'pending',
  'complete',
  'failed',
  'canceled',
  'declined',
  'reversed',
  'refunded',
] as const
export type ActivityStatus = (typeof ACTIVITY_STATUSES)[number]

/**
 * Which way the money went for the person: `in` (it arrived), `out` (it left
 * them), `own` (it moved between their own balances — an exchange, a transfer
 * between their wallets, a card top-up). A client signs amounts by it: "+" for
 * in, "−" for out; an `own` item shows both sides.
 */
export const ACTIVITY_DIRECTIONS = ['in', 'out', 'own'] as const
export type ActivityDirection = (typeof ACTIVITY_DIRECTIONS)[number]

/**
 * What an item was made from: its order, its card transaction, its wallet
 * record, its card, or a transfer between people (issue 32).
 */
export const ACTIVITY_SOURCE_TYPES = [
  'order',
  'card_transaction',
  'wallet_transaction',
  'card',
  'transfer',
] as const
export type ActivitySourceType = (typeof ACTIVITY_SOURCE_TYPES)[number]

/**
 * Steps of an item's timeline. Orders use their own codes (ORDER_EVENT_CODES);
 * the rest: a deposit DETECTED then CONFIRMED; a card payment AUTHORIZED (or
 * DECLINED), then CLEARED or REVERSED, then any REFUNDED; a fee CHARGED (or
 * DECLINED); a closed card's balance RETURNED; a transfer to a person SENT,
 * or AWAITING_CLAIM then CLAIMED or RETURNED (received: DELIVERED_TO_WALLET).
 * DECLINED); a closed card's balance RETURNED. A disputed card payment
 * (issue 30): DISPUTED, any DISPUTE_CREDITED (a fraud claim's provisional
 * credit, or a won claim's), DISPUTE_REVIEWED, then DISPUTE_WON or
 * DISPUTE_LOST, and a lost claim's credit DISPUTE_CREDIT_REVERSED.
 */
export const ACTIVITY_EVENT_CODES = [
  ...ORDER_EVENT_CODES,
  'DETECTED',
  'CONFIRMED',
  'AUTHORIZED',
  'DECLINED',
  'CLEARED',
  'REVERSED',
  'REFUNDED',
  'CHARGED',
  'RETURNED',
  'SENT',
  'AWAITING_CLAIM',
  'CLAIMED',
  'DISPUTED',
  'DISPUTE_CREDITED',
  'DISPUTE_REVIEWED',
  'DISPUTE_WON',
  'DISPUTE_LOST',
  'DISPUTE_CREDIT_REVERSED',
] as const
export type ActivityEventCode = (typeof ACTIVITY_EVENT_CODES)[number]

const Uuid = Type.String({ format: 'uuid' })
const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()])

/**
 * One thing that happened. Amounts are MoneySide values (decimal strings with
 * the currency's code, chain and decimals), never negative: `direction` says
 * which way. Everything a client needs to word the item in its own language is
 * here as data — names, merchant, currencies, codes — never as English text.
 *
 * | type | direction | amount | fee | received |
 * | --- | --- | --- | --- | --- |
 * | exchange | own | paid, before the fee | in the paid currency | what arrived |
 * | send | out | sent | fixed or network fee | null |
 * | transfer | own | sent | as send | what arrived |
 * | receive | in | what arrived | null | null |
 * | deposit | in | what was credited | a bank deposit's fee (the transfer was amount + fee) | null |
 * | card_purchase | out | authorised, then the cleared amount | null | null |
 * | card_top_up | own | paid from the wallet | the top-up fee | what reached the card account |
 * | card_balance_return | in | what came back | null | null |
 * | fee | out | the fee | null | null |
 */
export const ActivityItem = Type.Object({
  id: Uuid,
  type: oneOf(ACTIVITY_TYPES),
  status: oneOf(ACTIVITY_STATUSES),
  direction: oneOf(ACTIVITY_DIRECTIONS),
  /** The wallet it belongs to: the paying wallet, the receiving one, or the card's. */
  wallet_uuid: Uuid,
  /** The person's other wallet, when it spans two (an exchange or transfer into another wallet). */
  counter_wallet_uuid: Nullable(Uuid),
  card_id: Nullable(Uuid),
  card_last4: Nullable(Type.String({ pattern: '^[0-9]{4}$' })),
  fiat_account_id: Nullable(Uuid),
  /** The principal (see the table above). */
  amount: MoneySide,
  fee: Nullable(MoneySide),
  /**
   * What it changed the person's money by, in `amount`'s currency: out and own,
   * amount + fee − refunded; in, amount. Zero when it did not happen (failed,
   * canceled, declined, reversed, refunded in full).
   */
  total: MoneySide,
  /** What arrived on the other side of an own movement (an exchange's proceeds). */
  received: Nullable(MoneySide),
  /** Card payments: refunded (or credited for a dispute) so far, in `amount`'s currency. */
  refunded: Nullable(MoneySide),
  /** Units of `received` per one unit of `amount`, as quoted (exchanges, converting top-ups). */
  rate: Nullable(Type.String()),
  /** Whom it went to or came from: the saved counterparty, a SEPA payee, a bank sender, a sending person. */
  counterparty_name: Nullable(Type.String()),
  merchant: Nullable(Merchant),
  /** The chain address or IBAN paid, or the deposit address money arrived at. */
  address: Nullable(Type.String()),
  /** A bank deposit's payment reference. */
  reference: Nullable(Type.String()),
  tx_hash: Nullable(Type.String()),
  /** The note the payer typed on the order ("Rent for May"), on the payee's item too; `q` finds it. */
  note: Nullable(Type.String()),
  /** Crypto deposits: confirmations so far, and how many complete it. */
  confirmations: Nullable(Type.Integer()),
  required_confirmations: Nullable(Type.Integer()),
  /** `fee` items: which program fee. */
  fee_kind: Nullable(oneOf(CARD_FEE_KINDS)),
  /** Why it failed or was declined: the order's failure_code or the card's decline_reason. */
  failure_code: Nullable(Type.String()),
  /** Card payments: how the card was presented (null for those made before it was told). */
  channel: Nullable(oneOf(CARD_CHANNELS)),
  /** A card payment the person disputed (issue 30): the dispute and where it stands. */
  dispute: Nullable(Type.Object({ id: Uuid, status: oneOf(DISPUTE_STATUSES) })),
  source: Type.Object({
    type: oneOf(ACTIVITY_SOURCE_TYPES),
    id: Uuid,
    /** Items made from an order: its type. */
    order_type: Nullable(oneOf(ORDER_TYPES)),
  }),
  /** When it happened (the feed's order; never changes). */
  created_at: Type.String({ format: 'date-time' }),
  /** When it last changed (a status, a confirmation, a refund). */
  updated_at: Type.String({ format: 'date-time' }),
})
export type ActivityItem = Static<typeof ActivityItem>

export const ActivityEvent = Type.Object({
  status: oneOf(ACTIVITY_STATUSES),
  code: oneOf(ACTIVITY_EVENT_CODES),
  at: Type.String({ format: 'date-time' }),
  /** A card step's amount (cleared, refunded), in `amount`'s currency. */
  amount: Nullable(MoneySide),
})
export type ActivityEvent = Static<typeof ActivityEvent>

/**
 * `GET /api/v2/activity/{id}`: the item, its timeline oldest first, and under
 * it what the ledger recorded — the wallet records and card transactions it
 * wrote (with their hashes), for "Technical details".
 */
export const ActivityDetail = Type.Composite([
  ActivityItem,
  Type.Object({
    timeline: Type.Array(ActivityEvent),
    records: Type.Array(WalletTransaction),
    card_transactions: Type.Array(CardTransaction),
  }),
])
export type ActivityDetail = Static<typeof ActivityDetail>

/** Items per page when `limit` is not given, and at most. */
export const ACTIVITY_DEFAULT_LIMIT = 20
export const ACTIVITY_MAX_LIMIT = 100

/** A bound of `min`/`max`: a plain decimal, at most 18 places. */
export const ACTIVITY_AMOUNT_PATTERN = '^[0-9]{1,30}(\\.[0-9]{1,18})?$'

/**
 * `GET /api/v2/activity`: the person's feed, newest first, by keyset.
 * `cursor` is the previous page's `next_cursor`, opaque. Narrowing:
 * `wallet_uuid` (everything of that wallet, its cards and fiat accounts
 * included), `card_id`, `fiat_account_id`; `type`; `currency` (a code, any
 * letter case, of the amount or what was received); `q` (words in the
 * merchant, the counterparty, the currencies, the card's last four, the
 * reference, the address or the note, any case); `from` (inclusive) and `to`
 * (exclusive), ISO 8601 date-times of when it happened; `min` and `max`
 * (inclusive), decimal bounds of its `amount` in its own currency (with
 * `currency`, exactly that currency's); `status`.
 */
export const ActivityQuery = Type.Object({
  wallet_uuid: Type.Optional(Uuid),
  card_id: Type.Optional(Uuid),
  fiat_account_id: Type.Optional(Uuid),
  type: Type.Optional(oneOf(ACTIVITY_TYPES)),
  currency: Type.Optional(Type.String({ minLength: 1, maxLength: 20 })),
  q: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
  from: Type.Optional(Type.String({ format: 'date-time' })),
  to: Type.Optional(Type.String({ format: 'date-time' })),
  min: Type.Optional(Type.String({ pattern: ACTIVITY_AMOUNT_PATTERN })),
  max: Type.Optional(Type.String({ pattern: ACTIVITY_AMOUNT_PATTERN })),
  status: Type.Optional(oneOf(ACTIVITY_STATUSES)),
  limit: Type.Integer({ minimum: 1, maximum: ACTIVITY_MAX_LIMIT, default: ACTIVITY_DEFAULT_LIMIT }),
  cursor: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
})
export type ActivityQuery = Static<typeof ActivityQuery>

/** One page: `next_cursor` null on the last one. No total: a count would cost the whole feed. */
export const ActivityPage = Type.Object({
  data: Type.Array(ActivityItem),
  limit: Type.Integer(),
  next_cursor: Nullable(Type.String()),
})
export type ActivityPage = Static<typeof ActivityPage>
