import { type Static, type TSchema, Type } from '@sinclair/typebox'
import { oneOf } from './enums.ts'
import { Amount } from './money.ts'
import { Page, PageQuery } from './pagination.ts'
import { Note, TransferTarget } from './transfers.ts'

/**
 * Issue 32: a payment that repeats. Each occurrence of `rrule` (RFC 5545,
 * DAILY or slower), counted in `time_zone` from `starts_at`'s wall-clock time,
 * runs once as an ordinary transfer or order.
 */
export const SCHEDULE_KINDS = ['transfer', 'exchange', 'withdrawal'] as const
export type ScheduleKind = (typeof SCHEDULE_KINDS)[number]

/** ENDED: no occurrence is left (ends_at passed, COUNT reached). */
export const SCHEDULE_STATUSES = ['ACTIVE', 'PAUSED', 'ENDED'] as const
export type ScheduleStatus = (typeof SCHEDULE_STATUSES)[number]

export const SCHEDULE_RUN_STATUSES = ['RUNNING', 'COMPLETE', 'FAILED', 'SKIPPED'] as const
export type ScheduleRunStatus = (typeof SCHEDULE_RUN_STATUSES)[number]

/** How many upcoming runs a schedule answers with. */
export const NEXT_RUNS = 5

const Uuid = Type.String({ format: 'uuid' })
const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()])
const Time = Type.String({ format: 'date-time' })
const strict = { additionalProperties: false } as const

/** Each run: a transfer of `amount` to `to` (as POST /transfers). */
export const TransferTemplate = Type.Object(
  {
    to: TransferTarget,
    wallet_uuid: Uuid,
    currency_uuid: Uuid,
    amount: Amount,
    note: Type.Optional(Note),
  },
  strict,
)
/** Each run: an EXCHANGE_CRYPTO_INTERNAL of `amount_from` (a firm quote taken at that moment). */
export const ExchangeTemplate = Type.Object(
  { wallet_uuid: Uuid, from_uuid: Uuid, to_uuid: Uuid, amount_from: Amount },
  strict,
)
/** Each run: a withdrawal of `amount_from` to a saved destination. */
export const WithdrawalTemplate = Type.Object(
  {
    order_type: oneOf(['WITHDRAWAL_FIAT_SEPA', 'WITHDRAWAL_CRYPTO'] as const),
    wallet_uuid: Uuid,
    from_uuid: Uuid,
    amount_from: Amount,
    destination_id: Uuid,
  },
  strict,
)
export type TransferTemplate = Static<typeof TransferTemplate>
export type ExchangeTemplate = Static<typeof ExchangeTemplate>
export type WithdrawalTemplate = Static<typeof WithdrawalTemplate>

const Timing = {
  /** An RFC 5545 RRULE without DTSTART ("FREQ=WEEKLY;BYDAY=MO"); DAILY at most. */
  rrule: Type.String({ minLength: 6, maxLength: 500 }),
  /** The first occurrence's moment; its wall-clock time in `time_zone` is every run's. */
  starts_at: Time,
  ends_at: Type.Optional(Time),
  /** An IANA zone ("Europe/Berlin"). */
  time_zone: Type.String({ minLength: 1, maxLength: 64 }),
}

/** `POST /api/v2/schedules`. `max_slippage_bps`: exchanges only. */
export const CreateScheduleBody = Type.Union([
  Type.Object({ kind: Type.Literal('transfer'), template: TransferTemplate, ...Timing }, strict),
  Type.Object(
    {
      kind: Type.Literal('exchange'),
      template: ExchangeTemplate,
      ...Timing,
      max_slippage_bps: Type.Optional(Type.Integer({ minimum: 0, maximum: 10_000 })),
    },
    strict,
  ),
  Type.Object(
    { kind: Type.Literal('withdrawal'), template: WithdrawalTemplate, ...Timing },
    strict,
  ),
])
export type CreateScheduleBody = Static<typeof CreateScheduleBody>

/** `PATCH /api/v2/schedules/{id}`: pause or resume, or skip the next run. */
export const UpdateScheduleBody = Type.Object(
  {
    paused: Type.Optional(Type.Boolean()),
    skip_next: Type.Optional(Type.Literal(true)),
  },
  { ...strict, minProperties: 1 },
)
export type UpdateScheduleBody = Static<typeof UpdateScheduleBody>

/** One occurrence that came: what it did, or why it did not. */
export const ScheduleRun = Type.Object({
  id: Uuid,
  occurrence_at: Time,
  status: oneOf(SCHEDULE_RUN_STATUSES),
  /** FAILED or SKIPPED: INSUFFICIENT_FUNDS, PRICE_MOVED, SKIPPED_BY_YOU, or the refusal's problem code. */
  reason: Nullable(Type.String()),
  order_id: Nullable(Uuid),
  transfer_id: Nullable(Uuid),
  finished_at: Nullable(Time),
})
export type ScheduleRun = Static<typeof ScheduleRun>

export const Schedule = Type.Object({
  id: Uuid,
  kind: oneOf(SCHEDULE_KINDS),
  template: Type.Union([TransferTemplate, ExchangeTemplate, WithdrawalTemplate]),
  rrule: Type.String(),
  starts_at: Time,
  ends_at: Nullable(Time),
  time_zone: Type.String(),
  max_slippage_bps: Nullable(Type.Integer()),
  /** Exchanges: units of `to` per unit of `from` when the schedule was set up. */
  reference_rate: Nullable(Type.String()),
  status: oneOf(SCHEDULE_STATUSES),
  /** The next five runs (fewer when the rule ends first; none while paused). */
  next_runs: Type.Array(Time),
  /** The latest runs, newest first (at most ten). */
  recent_runs: Type.Array(ScheduleRun),
  created_at: Time,
  updated_at: Time,
})
export type Schedule = Static<typeof Schedule>

export const ScheduleList = Page(Schedule)
export type ScheduleList = Static<typeof ScheduleList>
export const ScheduleListQuery = PageQuery
