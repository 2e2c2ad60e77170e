import { type Static, type TSchema, Type } from '@sinclair/typebox'
import { oneOf } from './enums.ts'
import { Amount } from './money.ts'
import { MoneySide } from './orders.ts'

/**
 * Issue 32: one person pays another of the same tenant. A transfer is
 * COMPLETE at once when the recipient is a customer who may be found; sent to
 * a contact who is not (or who does not let people find them), it is
 * AWAITING_CLAIM — the money held — until that contact signs up (COMPLETE) or
 * seven days pass (RETURNED to the sender).
 */
export const TRANSFER_STATUSES = ['COMPLETE', 'AWAITING_CLAIM', 'RETURNED'] as const
export type TransferStatus = (typeof TRANSFER_STATUSES)[number]

/** How a sender names the recipient: a contact, or a person from their recent people. */
export const CONTACT_CHANNELS = ['email', 'phone', 'telegram_username'] as const
export type ContactChannel = (typeof CONTACT_CHANNELS)[number]

/** How long a claimable transfer waits for its contact before it goes back. */
export { CLAIM_DAYS } from './display-rules.ts'

const Uuid = Type.String({ format: 'uuid' })
const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()])
const Email = Type.String({ format: 'email', maxLength: 254 })
const Phone = Type.String({ minLength: 4, maxLength: 32 })
/** With or without the "@"; Telegram's rule: 5–32 letters, digits and underscores. */
const TelegramUsername = Type.String({ pattern: '^@?[A-Za-z0-9_]{5,32}$' })
export const Note = Type.String({ maxLength: 140 })

const strict = { additionalProperties: false } as const

/** Exactly one of these names the recipient. */
export const TransferTarget = Type.Union([
  Type.Object({ email: Email }, strict),
  Type.Object({ phone: Phone }, strict),
  Type.Object({ telegram_username: TelegramUsername }, strict),
  Type.Object({ user_id: Uuid }, strict),
])
export type TransferTarget = Static<typeof TransferTarget>

/**
 * `POST /api/v2/transfers`. `request_id` is the idempotency key (or the
 * `Idempotency-Key` header): the same key and body answer the first transfer
 * again; another body under it is 409 IDEMPOTENCY_CONFLICT.
 */
export const CreateTransferBody = Type.Object(
  {
    to: TransferTarget,
    wallet_uuid: Uuid,
    currency_uuid: Uuid,
    amount: Amount,
    note: Type.Optional(Note),
    request_id: Type.String({ minLength: 1, maxLength: 200 }),
  },
  strict,
)
export type CreateTransferBody = Static<typeof CreateTransferBody>

/** The other person of a transfer, as the caller may see them. */
export const TransferPerson = Type.Object({
  /** "Anna S.", else their Telegram "@username", else the contact as the sender typed it. */
  name: Type.String(),
  /** One letter for the avatar. */
  initial: Type.String(),
  /** Null while a transfer waits for its contact to sign up. */
  user_id: Nullable(Uuid),
})
export type TransferPerson = Static<typeof TransferPerson>

/** A transfer as one of its two people reads it. */
export const Transfer = Type.Object({
  id: Uuid,
  status: oneOf(TRANSFER_STATUSES),
  /** `out`: the caller sent it; `in`: the caller received it. */
  direction: oneOf(['in', 'out'] as const),
  /** The caller's wallet it left or reached. */
  wallet_uuid: Uuid,
  amount: MoneySide,
  note: Nullable(Type.String()),
  counterparty: TransferPerson,
  /** The contact a claimable transfer waits for (the sender's own words); null otherwise. */
  contact: Nullable(Type.String()),
  /** The payment request it paid, if any. */
  payment_request_id: Nullable(Uuid),
  /** AWAITING_CLAIM: when it goes back if nobody claimed it. */
  expires_at: Nullable(Type.String({ format: 'date-time' })),
  /** The sender's feed item (or the recipient's, for them). */
  activity_id: Nullable(Uuid),
  created_at: Type.String({ format: 'date-time' }),
  settled_at: Nullable(Type.String({ format: 'date-time' })),
})
export type Transfer = Static<typeof Transfer>

/**
 * `GET /api/v2/people/lookup`: exactly one of the three. Rate-limited per
 * person and per client address.
 */
export const PeopleLookupQuery = Type.Object({
  email: Type.Optional(Email),
  phone: Type.Optional(Phone),
  telegram_username: Type.Optional(TelegramUsername),
})
export type PeopleLookupQuery = Static<typeof PeopleLookupQuery>

/**
 * Someone who lets people find them: `found`, their display name and
 * initial. A contact nobody has and one whose owner does not let people find
 * them answer alike: `found: false`, nulls (a payment to it waits to be claimed).
 */
export const PersonLookup = Type.Object({
  found: Type.Boolean(),
  display_name: Nullable(Type.String()),
  initial: Nullable(Type.String()),
})
export type PersonLookup = Static<typeof PersonLookup>

/** People the caller paid or was paid by, the most recent first: the picker's first rows. */
export const RecentPerson = Type.Object({
  user_id: Uuid,
  display_name: Type.String(),
  initial: Type.String(),
  last_at: Type.String({ format: 'date-time' }),
})
export type RecentPerson = Static<typeof RecentPerson>
export const RecentPeople = Type.Object({ data: Type.Array(RecentPerson) })
export type RecentPeople = Static<typeof RecentPeople>
