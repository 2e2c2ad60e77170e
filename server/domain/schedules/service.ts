import type { Kysely } from 'kysely'
import { v7 as uuidv7 } from 'uuid'
import {
  type CreateScheduleBody,
  NEXT_RUNS,
  type Schedule,
  type ScheduleList,
  type UpdateScheduleBody,
} from '../../../contract/schedules.ts'
import type { DB } from '../../infra/db/schema.ts'
import { enqueue } from '../../infra/jobs.ts'
import { QuoteError } from '../orders/errors.ts'
import type { QuoteService } from '../orders/quotes.ts'
import type { Owner } from '../owner.ts'
import { TransferError } from '../transfers/errors.ts'
import * as people from '../transfers/repository.ts'
import { addresseeOf } from '../transfers/rules.ts'
import { amountOf } from '../transfers/send-transfer.ts'
import { walletNotFound } from '../wallets/errors.ts'
import { findWallet } from '../wallets/repository.ts'
import { ScheduleError, scheduleInvalid } from './errors.ts'
import * as repo from './repository.ts'
import {
  firstOccurrence,
  nextOccurrences,
  quoteQueryOf,
  type Recurrence,
  recurrenceOf,
  timingFault,
} from './rules.ts'
import { SCHEDULE_RUN_JOB } from './run-schedule.ts'

/** How many of its latest runs a schedule answers with. */
const RECENT_RUNS = 10

/**
 * Schedules (issue 32): the person sets a transfer, an exchange or a
 * withdrawal to repeat; the job runner runs each occurrence once
 * (run-schedule.ts). Every change here happens under the schedule's row lock,
 * and each one that moves the next run enqueues that run's job: a job that
 * finds the schedule moved on since does nothing.
 */
export class ScheduleService {
  constructor(
    private readonly db: Kysely<DB>,
    private readonly quotes: QuoteService,
    private readonly clock: () => Date = () => new Date(),
  ) {}

  /** @throws ScheduleError SCHEDULE_INVALID, WalletError WALLET_NOT_FOUND */
  async create(owner: Owner, body: CreateScheduleBody): Promise<Schedule> {
    const now = this.clock()
    // Whole seconds: the rule counts in them (rules.ts).
    const startsAt = new Date(Date.parse(body.starts_at) - (Date.parse(body.starts_at) % 1000))
    const recurrence: Recurrence = {
      rrule: body.rrule,
      startsAt,
      endsAt: body.ends_at ? new Date(body.ends_at) : null,
      timeZone: body.time_zone,
    }
    const fault = timingFault(recurrence)
    if (fault) throw scheduleInvalid(fault.field, fault.message)
    const next = firstOccurrence(recurrence, startsAt > now ? startsAt : now)
    if (!next) throw scheduleInvalid('/body/rrule', 'has no occurrence left after now')
    const referenceRate = await this.#checkTemplate(owner, body)
    const row = await this.db.transaction().execute(async (trx) => {
      const inserted = await repo.insertSchedule(trx, {
        id: uuidv7(),
        tenant_id: owner.tenantId,
        user_id: owner.userId,
        kind: body.kind,
        template: JSON.stringify(body.template),
        rrule: body.rrule.trim().replace(/^RRULE:/i, ''),
        starts_at: startsAt,
        ends_at: recurrence.endsAt,
        time_zone: body.time_zone,
        max_slippage_bps: body.kind === 'exchange' ? (body.max_slippage_bps ?? null) : null,
        reference_rate: referenceRate,
        next_run_at: next,
        created_at: now,
        updated_at: now,
      })
      await this.#enqueueRun(trx, inserted.tenant_id, inserted.id, next)
      return inserted
    })
    return (await this.#views([row]))[0]!
  }

  async list(owner: Owner, page: { limit: number; offset: number }): Promise<ScheduleList> {
    const rows = await repo.findSchedules(this.db, owner, page)
    const data = await this.#views(rows.slice(0, page.limit))
    const last = rows.length <= page.limit
    return {
      data,
      total: page.offset + (last ? data.length : rows.length),
      limit: page.limit,
      offset: page.offset,
      is_last_page: last,
    }
  }

  /** @throws ScheduleError SCHEDULE_NOT_FOUND */
  async get(owner: Owner, id: string): Promise<Schedule> {
    const row = await repo.findSchedule(this.db, owner, id)
    if (!row) throw new ScheduleError({ kind: 'SCHEDULE_NOT_FOUND' })
    return (await this.#views([row]))[0]!
  }

  /**
   * Pause (no run until resumed), resume (from the first occurrence after
   * now), or skip the next run (recorded as SKIPPED, SKIPPED_BY_YOU).
   * @throws ScheduleError SCHEDULE_NOT_FOUND, SCHEDULE_INVALID (skipping or
   *   resuming an ended schedule, skipping a paused one)
   */
  async update(owner: Owner, id: string, body: UpdateScheduleBody): Promise<Schedule> {
    const now = this.clock()
    const row = await this.db.transaction().execute(async (trx) => {
      const locked = await repo.lockSchedule(trx, id)
      if (
        !locked ||
        locked.user_id !== owner.userId ||
        locked.tenant_id !== owner.tenantId ||
        locked.status === 'DELETED'
      ) {
        throw new ScheduleError({ kind: 'SCHEDULE_NOT_FOUND' })
      }
      let current = locked
      if (body.paused === true && current.status === 'ACTIVE') {
        current = await repo.updateSchedule(trx, id, {
          status: 'PAUSED',
          next_run_at: null,
          updated_at: now,
        })
      } else if (body.paused === false && current.status === 'PAUSED') {
        const next = firstOccurrence(recurrenceOf(current), now)
        current = await repo.updateSchedule(trx, id, {
          status: next ? 'ACTIVE' : 'ENDED',
          next_run_at: next ?? null,
          updated_at: now,
        })
        if (next) await this.#enqueueRun(trx, current.tenant_id, id, next)
      }
      if (body.skip_next) {
        if (current.status !== 'ACTIVE' || !current.next_run_at) {
          throw scheduleInvalid('/body/skip_next', 'needs an active schedule with a next run')
        }
        const skipped = current.next_run_at
        await repo.claimRun(trx, {
          id: uuidv7(),
          tenant_id: current.tenant_id,
          schedule_id: id,
          occurrence_at: skipped,
          status: 'SKIPPED',
          reason: 'SKIPPED_BY_YOU',
          finished_at: now,
        })
        const next = nextOccurrences(recurrenceOf(current), skipped, 1)[0]
        current = await repo.updateSchedule(trx, id, {
          status: next ? 'ACTIVE' : 'ENDED',
          next_run_at: next ?? null,
          updated_at: now,
        })
        if (next) await this.#enqueueRun(trx, current.tenant_id, id, next)
      }
      return current
    })
    return (await this.#views([row]))[0]!
  }

  /** @throws ScheduleError SCHEDULE_NOT_FOUND */
  async delete(owner: Owner, id: string): Promise<void> {
    const row = await repo.findSchedule(this.db, owner, id)
    if (!row) throw new ScheduleError({ kind: 'SCHEDULE_NOT_FOUND' })
    await this.db.transaction().execute((trx) =>
      repo.updateSchedule(trx, id, {
        status: 'DELETED',
        next_run_at: null,
        updated_at: this.clock(),
      }),
    )
  }

  /** Whether the schedule (being made, or resumed) moves money out: the second look then. */
  async movesMoneyOut(owner: Owner, change: { kind?: string; id?: string; paused?: boolean }) {
    if (change.kind !== undefined) return change.kind !== 'exchange'
    if (change.paused !== false || !change.id) return false
    const row = await repo.findSchedule(this.db, owner, change.id)
    return row !== undefined && row.kind !== 'exchange' && row.status === 'PAUSED'
  }

  #enqueueRun(trx: Parameters<typeof enqueue>[0], tenantId: string, id: string, at: Date) {
    return enqueue(trx, {
      kind: SCHEDULE_RUN_JOB,
      tenantId,
      payload: { schedule_id: id, occurrence_at: at.toISOString() },
      runAt: at,
    })
  }

  /**
   * A template checked as its runs will be: a transfer's wallet, currency,
   * amount and recipient's form; an exchange or withdrawal priced once (its
   * rate is an exchange's reference for `max_slippage_bps`).
   */
  async #checkTemplate(owner: Owner, body: CreateScheduleBody): Promise<string | null> {
    const field = (name: string) => `/body/template/${name}`
    if (body.kind === 'transfer') {
      const { template } = body
      if (!(await findWallet(this.db, owner, template.wallet_uuid))) throw walletNotFound()
      const currency = await people.findCurrency(this.db, template.currency_uuid)
      if (!currency)
        throw scheduleInvalid(field('currency_uuid'), 'is no currency of the catalogue')
      try {
        amountOf(template.amount, currency.decimals)
      } catch (error) {
        if (error instanceof TransferError && error.failure.kind === 'TRANSFER_INVALID') {
          throw scheduleInvalid(field('amount'), error.failure.message)
        }
        throw error
      }
      const addressee = addresseeOf(template.to)
      if (!('kind' in addressee)) throw scheduleInvalid(field('to'), addressee.message)
      const person = await people.findPerson(this.db, owner.tenantId, addressee)
      if (person?.id === owner.userId) throw scheduleInvalid(field('to'), 'is you')
      return null
    }
    try {
      const quote = await this.quotes.create(
        owner,
        quoteQueryOf({ kind: body.kind, template: body.template }),
      )
      return body.kind === 'exchange' ? quote.rate : null
    } catch (error) {
      if (!(error instanceof QuoteError)) throw error
      const failure = error.failure
      if (!('field' in failure))
        throw scheduleInvalid(field('destination_id'), 'is no destination of this wallet')
      throw scheduleInvalid(field(failure.field), failure.reason ?? failure.message)
    }
  }

  async #views(rows: repo.ScheduleRow[]): Promise<Schedule[]> {
    const runs = await repo.recentRuns(
      this.db,
      rows.map((row) => row.id),
      RECENT_RUNS,
    )
    return rows.map((row) => {
      const next =
        row.status === 'ACTIVE' && row.next_run_at
          ? [row.next_run_at, ...nextOccurrences(recurrenceOf(row), row.next_run_at, NEXT_RUNS - 1)]
          : []
      return {
        id: row.id,
        kind: row.kind,
        template: row.template as Schedule['template'],
        rrule: row.rrule,
        starts_at: row.starts_at.toISOString(),
        ends_at: row.ends_at?.toISOString() ?? null,
        time_zone: row.time_zone,
        max_slippage_bps: row.max_slippage_bps,
        reference_rate: row.reference_rate,
        status: row.status === 'DELETED' ? 'ENDED' : row.status,
        next_runs: next.map((at) => at.toISOString()),
        recent_runs: (runs.get(row.id) ?? []).map((run) => ({
          id: run.id,
          occurrence_at: run.occurrence_at.toISOString(),
          status: run.status,
          reason: run.reason,
          order_id: run.order_id,
          transfer_id: run.transfer_id,
          finished_at: run.finished_at?.toISOString() ?? null,
        })),
        created_at: row.created_at.toISOString(),
        updated_at: row.updated_at.toISOString(),
      }
    })
  }
}
