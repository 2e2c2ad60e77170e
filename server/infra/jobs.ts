import type { FastifyBaseLogger, FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'
import type { Kysely, Transaction } from 'kysely'
import { v7 as uuidv7 } from 'uuid'
import type { Config } from '../config.ts'
import type { DB } from './db/schema.ts'

/**
 * # Background jobs, on the database itself
 *
 * A job is a row of `jobs` (migration 0005). Running one takes three short
 * steps, none of which holds a transaction open while the handler works:
 *
 * 1. claim: in one transaction, `select … where run_at <= now and done_at is
 *    null for update skip locked limit N`, then push those rows' run_at out by
 *    the lease (JOBS_LEASE_MS) and count the attempt. Two runners never claim
 *    one row: the second skips the locked rows, and after the commit they are
 *    no longer due.
 * 2. run the handler, outside any transaction: it opens its own (on PGlite a
 *    transaction held across the handler would block every other request, and
 *    a handler calling a provider must not hold the database while it waits).
 * 3. finish: `done_at`, or a new run_at the handler asked for (the next step
 *    of a multi-step job), or — when it threw — `last_error` and a backoff.
 *
 * A runner that dies between 2 and 3 leaves the lease to run out; the job then
 * runs again. So a handler must be idempotent per step: gate each step on the
 * state it moves (a status) and give every ledger entry an idempotency key, and
 * a repeat does nothing twice.
 */

type Executor = Kysely<DB> | Transaction<DB>

export interface Job {
  id: string
  kind: string
  tenantId: string | null
  payload: Record<string, unknown>
  /** This try's number, from 1; reset after each successful step. */
  attempt: number
}

export interface JobContext {
  db: Kysely<DB>
  log: FastifyBaseLogger
  /** The runner's clock: the handler schedules its next step from it. */
  now: Date
}

/** Nothing (done) or when to run the job's next step (not an error: attempts restart). */
export type JobResult = undefined | { again: Date }

export type JobHandler = (job: Job, context: JobContext) => Promise<JobResult>

export interface EnqueueInput {
  kind: string
  tenantId: string | null
  payload?: Record<string, unknown>
  /** Default: due at once (now on the app's clock). */
  runAt?: Date
}

export interface RunOptions {
  /** Pretend it is this time (tests): due-ness, leases and backoff are computed from it. */
  now?: Date
  /** Jobs claimed at once; default 10. */
  limit?: number
}

export interface RunReport {
  done: number
  rescheduled: number
  failed: number
}

/** Retry delay after the n-th failed try: 1 s, 2 s, 4 s … capped at 5 minutes. */
export function backoffMs(attempt: number): number {
  return Math.min(1_000 * 2 ** Math.max(0, attempt - 1), 5 * 60_000)
}

/** Adds a job, in the caller's transaction when given one (so it commits with the work). */
export async function enqueue(db: Executor, input: EnqueueInput): Promise<string> {
  const id = uuidv7()
  await db
    .insertInto('jobs')
    .values({
      id,
      tenant_id: input.tenantId,
      kind: input.kind,
      payload: JSON.stringify(input.payload ?? {}),
      // The app's clock, like every due-ness test (runDue): one clock, whatever the database's says.
      run_at: input.runAt ?? new Date(),
    })
    .execute()
  return id
}

export class JobRunner {
  readonly #handlers = new Map<string, JobHandler>()
  /** Jobs claimed and not finished yet, with the lease (run_at) their claim set. */
  readonly #leased = new Map<string, Date>()
  #timer: NodeJS.Timeout | undefined
  #running: Promise<unknown> | undefined
  #stopped = false

  constructor(
    private readonly db: Kysely<DB>,
    private readonly log: FastifyBaseLogger,
    private readonly options: { leaseMs: number; clock?: () => Date },
  ) {}

  readonly enqueue = (db: Executor, input: EnqueueInput) => enqueue(db, input)

  /** One handler per kind; a runner claims only the kinds it has a handler for. */
  register(kind: string, handler: JobHandler): void {
    if (this.#handlers.has(kind)) throw new Error(`a handler for job kind ${kind} is registered`)
    this.#handlers.set(kind, handler)
  }

  /** Claims the due jobs (up to `limit`) and runs them one after the other. */
  async runDue(options: RunOptions = {}): Promise<RunReport> {
    const report: RunReport = { done: 0, rescheduled: 0, failed: 0 }
    const kinds = [...this.#handlers.keys()]
    if (kinds.length === 0) return report
    const now = options.now ?? this.options.clock?.() ?? new Date()
    const claimed = await this.#claim(kinds, now, options.limit ?? 10)
    for (const job of claimed) {
      // Stopping: the rest of the batch is not started; releaseLeases() hands it back.
      if (this.#stopped) break
      try {
        report[await this.#run(job, now)]++
      } finally {
        this.#leased.delete(job.id)
      }
    }
    return report
  }

  async #claim(kinds: string[], now: Date, limit: number): Promise<Job[]> {
    const lease = new Date(now.getTime() + this.options.leaseMs)
    return this.db.transaction().execute(async (trx) => {
      const rows = await trx
        .selectFrom('jobs')
        .select(['id', 'kind', 'tenant_id', 'payload', 'attempts'])
        .where('done_at', 'is', null)
        .where('run_at', '<=', now)
        .where('kind', 'in', kinds)
        .orderBy('run_at')
        .limit(limit)
        .forUpdate()
        .skipLocked()
        .execute()
      if (rows.length === 0) return []
      await trx
        .updateTable('jobs')
        .set((eb) => ({ run_at: lease, attempts: eb('attempts', '+', 1) }))
        .where(
          'id',
          'in',
          rows.map((row) => row.id),
        )
        .execute()
      for (const row of rows) this.#leased.set(row.id, lease)
      return rows.map((row) => ({
        id: row.id,
        kind: row.kind,
        tenantId: row.tenant_id,
        payload: row.payload,
        attempt: row.attempts + 1,
      }))
    })
  }

  async #run(job: Job, now: Date): Promise<keyof RunReport> {
    const handler = this.#handlers.get(job.kind)!
    const log = this.log.child({ job: job.id, kind: job.kind, attempt: job.attempt })
    let result: JobResult
    try {
      result = await handler(job, { db: this.db, log, now })
    } catch (error) {
      const retryAt = new Date(now.getTime() + backoffMs(job.attempt))
      log.warn({ err: error, retryAt }, 'job failed; it will be retried')
      await this.db
        .updateTable('jobs')
        .set({ last_error: errorText(error), run_at: retryAt })
        .where('id', '=', job.id)
        .execute()
      return 'failed'
    }
    if (result?.again) {
      await this.db
        .updateTable('jobs')
        .set({ run_at: result.again, attempts: 0, last_error: null })
        .where('id', '=', job.id)
        .execute()
      return 'rescheduled'
    }
    await this.db
      .updateTable('jobs')
      .set({ done_at: new Date(), last_error: null })
      .where('id', '=', job.id)
      .execute()
    return 'done'
  }

  /**
   * Polls every `pollMs`: runs due jobs until a claim comes back short of a
   * full batch, then waits. One tick at a time, so close() has one to await.
   */
  start(pollMs: number): void {
    if (this.#timer || this.#stopped || pollMs <= 0) return
    const tick = async () => {
      try {
        const limit = 10
        for (;;) {
          if (this.#stopped) return
          const report = await this.runDue({ limit })
          if (report.done + report.rescheduled + report.failed < limit) return
        }
      } catch (error) {
        this.log.error({ err: error }, 'job poll failed')
      }
    }
    const loop = () => {
      this.#running = tick().finally(() => {
        this.#running = undefined
        if (!this.#stopped) this.#timer = setTimeout(loop, pollMs)
      })
    }
    this.#timer = setTimeout(loop, 0)
  }

  /** Stops polling and waits for the job in hand to finish. */
  async stop(): Promise<void> {
    this.#stopped = true
    clearTimeout(this.#timer)
    await this.#running
  }

  /**
   * Hands back the jobs this runner claimed and has not started (the rest of a batch when
   * it stopped): due again at once and their attempt uncounted, so another node runs them
   * now rather than when the lease runs out. A row whose run_at is no longer our lease was
   * taken by someone else after the lease ran out, and is left alone. Called on shutdown,
   * after stop(). Answers how many were released.
   */
  async releaseLeases(): Promise<number> {
    const byLease = new Map<number, string[]>()
    for (const [id, lease] of this.#leased) {
      byLease.set(lease.getTime(), [...(byLease.get(lease.getTime()) ?? []), id])
    }
    this.#leased.clear()
    const now = this.options.clock?.() ?? new Date()
    let released = 0
    for (const [lease, ids] of byLease) {
      const result = await this.db
        .updateTable('jobs')
        .set((eb) => ({ run_at: now, attempts: eb('attempts', '-', 1) }))
        .where('id', 'in', ids)
        .where('done_at', 'is', null)
        .where('run_at', '=', new Date(lease))
        .executeTakeFirst()
      released += Number(result.numUpdatedRows)
    }
    if (released > 0) this.log.info({ released }, 'job leases released')
    return released
  }
}

function errorText(error: unknown): string {
  const text = error instanceof Error ? `${error.name}: ${error.message}` : String(error)
  return text.slice(0, 2_000)
}

declare module 'fastify' {
  interface FastifyInstance {
    jobs: JobRunner
  }
}

/**
 * `app.jobs`: register handlers at plugin time; the poll loop starts when the
 * app is ready (JOBS_POLL_MS, 0 = never: tests call runDue) and stops on close,
 * after the running job.
 */
export default fp(
  async function jobs(app: FastifyInstance, opts: { config: Config }) {
    const runner = new JobRunner(app.db, app.log.child({ plugin: 'jobs' }), {
      leaseMs: opts.config.jobs.leaseMs,
    })
    app.decorate('jobs', runner)
    app.addHook('onReady', async () => runner.start(opts.config.jobs.pollMs))
    app.addHook('onClose', async () => {
      await runner.stop()
      await runner.releaseLeases()
    })
  },
  { name: 'jobs', dependencies: ['db'] },
)
