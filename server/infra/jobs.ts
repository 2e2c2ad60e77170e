import type { FastifyBaseLogger, FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'
import type { Kysely, Updateable } from 'kysely'
import { v4 as uuidv4 } from 'uuid'
import type { Config } from '../config.ts'
import type { DB } from './db/schema.ts'
import {
  claimDue,
  type EnqueueInput,
  type Executor,
  enqueue,
  finishJobs,
  type Job,
  releaseJobs,
  renewLeases,
} from './job-rows.ts'

export {
  type EnqueueInput,
  enqueue,
  enqueueAll,
  enqueueWrite,
  type Job,
  jobRow,
} from './job-rows.ts'

/**
 * # Background jobs, on the database itself
 *
 * A job is a row of `jobs` (migration 0005). Running one takes three short
 * steps, none of which holds a transaction open while the handler works:
 *
 * 1. claim: in one statement, `select … where run_at <= now and done_at is
 *    null for update skip locked limit N`, and push those rows' run_at out by
 *    the lease (JOBS_LEASE_MS, 10 s), mark them with the runner's id
 *    (`claimed_by`) and count the attempt. Two runners never claim one row:
 *    the second skips the locked rows, and after the commit they are no longer
 *    due.
 * 2. run the handler, outside any transaction: it opens its own (on PGlite a
 *    transaction held across the handler would block every other request, and
 *    a handler calling a provider must not hold the database while it waits).
 *    While the batch lasts, a heartbeat renews the lease of the runner's jobs
 *    still in hand every third of a lease — however long a handler waits.
 * 3. finish, if the job is still this runner's: `done_at`, or a new run_at
 *    the handler asked for (the next step of a multi-step job), or — when it
 *    threw — `last_error` and a backoff.
 *
 * A runner that dies stops its heartbeat: within one lease its jobs are due
 * again and another runner (or the restarted process) takes them over. A
 * runner that merely stalled past its lease finds its job taken and finishes
 * nothing. Either way a step can run twice, so a handler must be idempotent
 * per step: gate each step on the state it moves (a status) and give every
 * ledger entry an idempotency key, and a repeat does nothing twice.
 *
 * A kind registered with a batch handler (`registerBatch`: the events'
 * dispatch) is claimed up to BATCH_LIMIT jobs at a time and handed over whole,
 * so a burst of events costs its few set-based statements once, not once per
 * event; the batch is finished in one statement. A batch that throws is run
 * again one job at a time, so one job that cannot succeed holds back only
 * itself, with its own backoff.
 */

export interface JobContext {
  db: Kysely<DB>
  log: FastifyBaseLogger
  /** The runner's clock: the handler schedules its next step from it. */
  now: Date
}

/** Nothing (done) or when to run the job's next step (not an error: attempts restart). */
export type JobResult = undefined | { again: Date }

export type JobHandler = (job: Job, context: JobContext) => Promise<JobResult>

/** Runs every job of a batch (of one kind) or throws; it must be idempotent per job. */
export type BatchHandler = (jobs: Job[], context: JobContext) => Promise<void>

/**
 * Jobs of one kind handed to a batch handler at once, at most: enough that a
 * burst's statements are paid once for dozens of jobs, few enough that the
 * batch's transaction — which holds the embedded database's one connection
 * while it runs — stays a few milliseconds long.
 */
export const BATCH_LIMIT = 50

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

export class JobRunner {
  readonly #handlers = new Map<string, JobHandler>()
  readonly #batches = new Map<string, BatchHandler>()
  /** Written to `claimed_by`: which leases this runner renews and may finish. */
  readonly #id = uuidv4()
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
    this.#refuseSecond(kind)
    this.#handlers.set(kind, handler)
  }

  /** A kind whose due jobs are run together: up to BATCH_LIMIT per call of `handler`. */
  registerBatch(kind: string, handler: BatchHandler): void {
    this.#refuseSecond(kind)
    this.#batches.set(kind, handler)
  }

  #refuseSecond(kind: string) {
    if (this.#handlers.has(kind) || this.#batches.has(kind))
      throw new Error(`a handler for job kind ${kind} is registered`)
  }

  /**
   * Claims the due jobs of the batch kinds (up to BATCH_LIMIT) and runs them a
   * kind at a time, then the other kinds' (up to `limit`) one after the other,
   * renewing their leases meanwhile. After stop() no further job of a claim
   * starts: those are handed back, due at once, for another runner.
   */
  async runDue(options: RunOptions = {}): Promise<RunReport> {
    const report: RunReport = { done: 0, rescheduled: 0, failed: 0 }
    const now = options.now ?? this.options.clock?.() ?? new Date()
    const batchKinds = [...this.#batches.keys()]
    if (batchKinds.length > 0) {
      const claimed = await this.#claim(batchKinds, now, BATCH_LIMIT)
      await this.#holding(claimed, now, async (held) => {
        for (const kind of batchKinds) {
          const jobs = claimed.filter((job) => job.kind === kind)
          if (jobs.length === 0 || this.#stopped) continue
          await this.#runBatch(kind, jobs, now, report, held)
        }
      })
    }
    const kinds = [...this.#handlers.keys()]
    if (kinds.length > 0) {
      const claimed = await this.#claim(kinds, now, options.limit ?? 10)
      await this.#holding(claimed, now, async (held) => {
        for (const job of claimed) {
          if (this.#stopped) break
          report[await this.#run(job, now)]++
          held.delete(job.id)
        }
      })
    }
    return report
  }

  /**
   * Runs `work` over claimed jobs with a heartbeat renewing the leases of those
   * still in hand (`work` deletes a job from the set once it is finished), and
   * hands back whatever is left when it ends.
   */
  async #holding(claimed: Job[], now: Date, work: (held: Set<string>) => Promise<void>) {
    if (claimed.length === 0) return
    const held = new Set(claimed.map((job) => job.id))
    // The heartbeat reckons from the batch's clock, so a test's pretend time stays consistent.
    const startedAt = Date.now()
    const heartbeat = setInterval(
      () => void this.#renew(held, new Date(now.getTime() + Date.now() - startedAt)),
      Math.max(100, Math.floor(this.options.leaseMs / 3)),
    )
    try {
      await work(held)
    } finally {
      clearInterval(heartbeat)
      if (held.size > 0) await this.#release([...held], now)
    }
  }

  /** One call of the kind's batch handler, finished in one statement; one job at a time if it throws. */
  async #runBatch(kind: string, jobs: Job[], now: Date, report: RunReport, held: Set<string>) {
    const handler = this.#batches.get(kind)!
    const log = this.log.child({ kind, jobs: jobs.length })
    try {
      await handler(jobs, { db: this.db, log, now })
    } catch (error) {
      if (jobs.length === 1) {
        await this.#failed(jobs[0]!, now, error, log)
        held.delete(jobs[0]!.id)
        report.failed++
        return
      }
      log.warn({ err: error }, 'job batch failed; its jobs are run one at a time')
      for (const job of jobs) {
        if (this.#stopped) return
        await this.#runBatch(kind, [job], now, report, held)
      }
      return
    }
    const ids = jobs.map((job) => job.id)
    const finished = await finishJobs(this.db, ids, this.#id, {
      done_at: new Date(),
      last_error: null,
    })
    if (finished < jobs.length) {
      log.warn('job lease lost: another runner has part of the batch')
    }
    for (const job of jobs) held.delete(job.id)
    report.done += jobs.length
  }

  #claim(kinds: string[], now: Date, limit: number): Promise<Job[]> {
    const until = new Date(now.getTime() + this.options.leaseMs)
    return claimDue(this.db, { kinds, now, limit, until, runner: this.#id })
  }

  /** The heartbeat: pushes out the lease of every job still in hand and still ours. */
  async #renew(held: Set<string>, now: Date): Promise<void> {
    const ids = [...held]
    if (ids.length === 0) return
    try {
      await renewLeases(this.db, ids, new Date(now.getTime() + this.options.leaseMs), this.#id)
    } catch (error) {
      // A missed beat only shortens the lease; the next one tries again.
      this.log.warn({ err: error }, 'job lease renewal failed')
    }
  }

  /** Hands back the claimed jobs this runner will not start (it is stopping). */
  async #release(ids: string[], now: Date): Promise<void> {
    await releaseJobs(this.db, ids, now, this.#id).catch((error) =>
      this.log.warn({ err: error }, 'could not hand back claimed jobs'),
    )
  }

  /** Updates the job only while this runner holds it; false: another took it over. */
  async #finish(job: Job, changes: Updateable<DB['jobs']>) {
    if ((await finishJobs(this.db, [job.id], this.#id, changes)) === 0) {
      this.log.warn({ job: job.id, kind: job.kind }, 'job lease lost: another runner has it')
    }
  }

  /** A try that threw: its error recorded, the job due again after a backoff. */
  async #failed(job: Job, now: Date, error: unknown, log: FastifyBaseLogger) {
    const retryAt = new Date(now.getTime() + backoffMs(job.attempt))
    log.warn({ err: error, retryAt, job: job.id }, 'job failed; it will be retried')
    await this.#finish(job, { last_error: errorText(error), run_at: retryAt })
  }

  async #run(job: Job, now: Date): Promise<keyof RunReport> {
    const handler = this.#handlers.get(job.kind)!
    const log = this.log.child({ job: job.id, kind: job.kind, attempt: job.attempt })
    let result: JobResult
    try {
      result = await handler(job, { db: this.db, log, now })
    } catch (error) {
      await this.#failed(job, now, error, log)
      return 'failed'
    }
    if (result?.again) {
      await this.#finish(job, { run_at: result.again, attempts: 0, last_error: null })
      return 'rescheduled'
    }
    await this.#finish(job, { done_at: new Date(), last_error: null })
    return 'done'
  }

  /**
   * Polls every `pollMs`: runs due jobs until a round comes back with fewer
   * than ten, then waits. One tick at a time, so close() has one to await.
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

  /**
   * Stops polling and waits for the job in hand to finish; the rest of its
   * batch is handed back. The process's stop deadline (main.ts) bounds the wait.
   */
  async stop(): Promise<void> {
    this.#stopped = true
    clearTimeout(this.#timer)
    await this.#running
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
    app.addHook('onClose', () => runner.stop())
  },
  { name: 'jobs', dependencies: ['db'] },
)
