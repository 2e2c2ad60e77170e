import { type Static, Type } from '@sinclair/typebox'
import {
  DISPUTE_REASONS,
  DISPUTE_STATUSES,
  type DisputeReason,
  type DisputeStatus,
  disputeDecided,
} from './card-choices.ts'
import { Merchant } from './card-transactions.ts'
import { oneOf } from './enums.ts'
import { Amount } from './money.ts'
import { Page, PageQuery } from './pagination.ts'

export { DISPUTE_REASONS, DISPUTE_STATUSES, type DisputeReason, type DisputeStatus, disputeDecided }

/*
 * Issue 30: a person disputes a settled card payment (after Stripe Issuing's
 * disputes). The card network decides it; a fraud claim is credited at once,
 * provisionally, and that credit is taken back if the dispute is lost.
 */

const Uuid = Type.String({ format: 'uuid' })
const Time = Type.String({ format: 'date-time' })

/**
 * `POST /api/v1/issuing/transactions/{id}/dispute`: `{id}` is the payment's
 * authorisation (or its clearing), settled. `amount`: what is disputed, at
 * most what was charged less what was refunded (that whole rest when left
 * out). `details`: what happened, in the person's words.
 */
export const CreateDisputeBody = Type.Object(
  {
    reason: oneOf(DISPUTE_REASONS),
    details: Type.String({ minLength: 1, maxLength: 2000 }),
    amount: Type.Optional(Amount),
  },
  { additionalProperties: false },
)
export type CreateDisputeBody = Static<typeof CreateDisputeBody>

/**
 * One dispute. `transaction_id` is the payment's authorisation. `credit`:
 * what the person has been credited for it — a fraud claim provisionally at
 * once (`provisional: true` until won), any claim once won; null while
 * nothing was, or after a lost claim's credit was taken back.
 */
export const CardDispute = Type.Object({
  id: Uuid,
  card_id: Uuid,
  card_last4: Type.String({ pattern: '^[0-9]{4}$' }),
  transaction_id: Uuid,
  /** The payment's activity item, where the app shows it. */
  activity_id: Type.Union([Uuid, Type.Null()]),
  reason: oneOf(DISPUTE_REASONS),
  details: Type.String(),
  status: oneOf(DISPUTE_STATUSES),
  amount: Amount,
  currency: Type.String(),
  merchant: Type.Union([Merchant, Type.Null()]),
  credit: Type.Union([
    Type.Object({ amount: Amount, provisional: Type.Boolean(), at: Time }),
    Type.Null(),
  ]),
  created_at: Time,
  updated_at: Time,
})
export type CardDispute = Static<typeof CardDispute>

export const CardDisputeList = Page(CardDispute)
export type CardDisputeList = Static<typeof CardDisputeList>
export const CardDisputeQuery = PageQuery

/** What the sandbox network decides: it takes the dispute up, or ends it. */
export const DISPUTE_OUTCOMES = ['under_review', 'won', 'lost'] as const
export type DisputeOutcome = (typeof DISPUTE_OUTCOMES)[number]

/** `POST /api/sandbox/card-disputes/{id}/decision` */
export const DisputeDecisionBody = Type.Object(
  { outcome: oneOf(DISPUTE_OUTCOMES) },
  { additionalProperties: false },
)
export type DisputeDecisionBody = Static<typeof DisputeDecisionBody>
