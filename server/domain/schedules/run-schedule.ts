import type { Kysely } from 'kysely'
import { v7 as uuidv7 } from 'uuid'
import type { ScheduleRunStatus, TransferTemplate } from '../../../contract/schedules.ts'
import type { DB } from '../../infra/db/schema.ts'
import { enqueue, type Job, type JobContext, type JobResult } from '../../infra/jobs.ts'
import { ProblemError } from '../../infra/problem.ts'
import { DomainError } from '../failure.ts'
import { isLockedDown } from '../lockdown/repository.ts'
import { OrderError } from '../orders/errors.ts'
import type { QuoteService } from '../orders/quotes.ts'
import type { OrderService } from '../orders/service.ts'
import { emitEvent } from '../outbox.ts'
import type { Owner } from '../owner.ts'
import * as people from '../transfers/repository.ts'
import type { TransferService } from '../transfers/service.ts'
import * as repo from './repository.ts'
import { movedPast, nextRunAfter, quoteQueryOf, recurrenceOf } from './rules.ts'

/** One occurrence of one schedule: payload `{ schedule_id, occurrence_at }`, due at the occurrence. */
export const SCHEDULE_RUN_JOB = 'schedules.run'

export interface RunDeps {
  db: Kysely<DB>
  transfers: TransferService
  quotes: QuoteService
  orders: OrderService
}

type Outcome = {
  status: Exclude<ScheduleRunStatus, 'RUNNING'>
  reason: string | null
  order_id?: string
  transfer_id?: string
}

/**
 * SCHEDULE_RUN_JOB: runs one occurrence, exactly once however many runners
 * see its job and however often a crash repeats it.
 *
 * 1. Under the schedule's row lock, the occurrence's run row is made — its
 *    unique key (schedule, occurrence) is the once — or found: a run still
 *    RUNNING (its runner died) is carried on, a finished one is left alone, and
 *    a job for an occurrence the schedule has moved past does nothing.
 * 2. The payment, outside any transaction, under the run's own idempotency key
 *    (`schedule:<run id>`): a transfer or an order placed twice answers the
 *    first, so a run repeated after a crash moves money once.
 * 3. Under the lock again, the run ends (only from RUNNING) and the schedule
 *    moves on to its next occurrence, whose job is enqueued with it; a run that
 *    moved nothing tells the person why (`schedule.run_failed` / `_skipped`).
 */
export async function runSchedule(
  deps: RunDeps,
  job: Job,
  context: JobContext,
): Promise<JobResult> {
  const scheduleId = String(job.payload.schedule_id)
  const occurrence = new Date(String(job.payload.occurrence_at))
  const begun = await deps.db.transaction().execute(async (trx) => {
    const schedule = await repo.lockSchedule(trx, scheduleId)
    if (!schedule) return undefined
    const due =
      schedule.status === 'ACTIVE' && schedule.next_run_at?.getTime() === occurrence.getTime()
    const existing = await trx
      .selectFrom('schedule_runs')
      .selectAll()
      .where('schedule_id', '=', scheduleId)
      .where('occurrence_at', '=', occurrence)
      .executeTakeFirst()
    if (existing) return existing.status === 'RUNNING' ? { schedule, run: existing } : undefined
    if (!due) return undefined
    const { run } = await repo.claimRun(trx, {
      id: uuidv7(),
      tenant_id: schedule.tenant_id,
      schedule_id: scheduleId,
      occurrence_at: occurrence,
    })
    return { schedule, run }
  })
  if (!begun) return undefined

  const owner = { tenantId: begun.schedule.tenant_id, userId: begun.schedule.user_id }
  const outcome = await pay(deps, begun.schedule, begun.run, owner)

  await deps.db.transaction().execute(async (trx) => {
    const schedule = await repo.lockSchedule(trx, scheduleId)
    const now = context.now
    const ended = await repo.finishRun(trx, begun.run.id, {
      status: outcome.status,
      reason: outcome.reason,
      order_id: outcome.order_id ?? null,
      transfer_id: outcome.transfer_id ?? null,
      finished_at: now,
    })
    if (!ended || !schedule) return
    if (schedule.status === 'ACTIVE' && schedule.next_run_at?.getTime() === occurrence.getTime()) {
      const next = nextRunAfter(recurrenceOf(schedule), occurrence, now)
      await repo.updateSchedule(trx, scheduleId, {
        status: next ? 'ACTIVE' : 'ENDED',
        next_run_at: next ?? null,
        updated_at: now,
      })
      if (next) {
        await enqueue(trx, {
          kind: SCHEDULE_RUN_JOB,
          tenantId: schedule.tenant_id,
          payload: { schedule_id: scheduleId, occurrence_at: next.toISOString() },
          runAt: next,
        })
      }
    }
    if (outcome.status === 'COMPLETE') return
    const money = await moneyOf(trx, schedule)
    await emitEvent(trx, {
      tenantId: schedule.tenant_id,
      userId: schedule.user_id,
      kind: outcome.status === 'SKIPPED' ? 'schedule.run_skipped' : 'schedule.run_failed',
      payload: {
        schedule_id: scheduleId,
        run_id: begun.run.id,
        kind: schedule.kind,
        reason: outcome.reason ?? 'FAILED',
        occurrence_at: occurrence.toISOString(),
        ...money,
      },
    })
  })
  return undefined
}

/** The run's payment: an ordinary transfer, or an order on a firm quote taken now. */
async function pay(
  deps: RunDeps,
  schedule: repo.ScheduleRow,
  run: repo.RunRow,
  owner: Owner,
): Promise<Outcome> {
  const key = `schedule:${run.id}`
  if ((await repo.userBlocked(deps.db, owner))?.blocked_at) {
    return { status: 'FAILED', reason: 'USER_BLOCKED' }
  }
  // A lockdown refuses money out (issue 30); an exchange stays in the person's wallet.
  if (schedule.kind !== 'exchange' && (await isLockedDown(deps.db, owner))) {
    return { status: 'FAILED', reason: 'LOCKDOWN_ACTIVE' }
  }
  try {
    if (schedule.kind === 'transfer') {
      const template = schedule.template as TransferTemplate
      const { transfer } = await deps.transfers.send(owner, { ...template, request_id: key })
      return { status: 'COMPLETE', reason: null, transfer_id: transfer.id }
    }
    // Placed before a crash: the order is this run's (its key is the run's).
    const placed = await deps.orders.findByRequest(owner, key)
    if (placed) return { status: 'COMPLETE', reason: null, order_id: placed.id }
    const quote = await deps.quotes.create(owner, quoteQueryOf(schedule))
    if (
      schedule.kind === 'exchange' &&
      schedule.max_slippage_bps !== null &&
      schedule.reference_rate !== null &&
      movedPast(schedule.reference_rate, quote.rate, schedule.max_slippage_bps)
    ) {
      return { status: 'SKIPPED', reason: 'PRICE_MOVED' }
    }
    const { order } = await deps.orders.place(owner, {
      orderType: quote.order_type,
      quoteId: quote.quote_id,
      requestId: key,
    })
    return { status: 'COMPLETE', reason: null, order_id: order.id }
  } catch (error) {
    // Another runner placed it with its own quote meanwhile: the order is this run's all the same.
    if (error instanceof OrderError && error.failure.kind === 'IDEMPOTENCY_CONFLICT') {
      const placed = await deps.orders.findByRequest(owner, key)
      if (placed) return { status: 'COMPLETE', reason: null, order_id: placed.id }
    }
    // A refusal is the run's outcome; anything else (the database, a rates outage) is retried.
    if (error instanceof DomainError) return { status: 'FAILED', reason: error.failure.kind }
    if (error instanceof ProblemError && error.status < 500)
      return { status: 'FAILED', reason: error.code }
    throw error
  }
}

/** What one run would have moved, as the events tell it. */
async function moneyOf(
  db: Kysely<DB> | Parameters<typeof repo.lockSchedule>[0],
  schedule: repo.ScheduleRow,
) {
  const template = schedule.template as Record<string, string>
  const currencyUuid = template.currency_uuid ?? template.from_uuid!
  const currency = await people.findCurrency(db, currencyUuid)
  return {
    amount: template.amount ?? template.amount_from ?? '0',
    currency: currency?.code ?? '',
  }
}
