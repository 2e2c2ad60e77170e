import type { FastifyInstance } from 'fastify'
import { type Kysely, sql } from 'kysely'
import type { DB } from './db/schema.ts'
import type { JobContext, JobRunner } from './jobs.ts'

export interface PeriodicJob {
  kind: string
  /** Milliseconds from the end of one round to the next. */
  everyMs: number
  /** One round; it may ask for the next one sooner (a backlog left to work through). */
  round: (context: JobContext) => Promise<{ soon?: boolean } | undefined>
}

/**
 * Maintenance that runs every so often on the job runner, on whichever server
 * claims it: the handler does one round and reschedules its job. One pending
 * job row per kind, made when the app is ready if there is none (an advisory
 * lock keeps two servers starting at once from making two). Only where the
 * runner polls (JOBS_POLL_MS > 0): where tests drive the queue by hand,
 * nothing is added to it unasked.
 */
export function runPeriodically(app: FastifyInstance, pollMs: number, job: PeriodicJob): void {
  app.jobs.register(job.kind, async (_job, context) => {
    const done = await job.round(context)
    const wait = done?.soon ? Math.min(1_000, job.everyMs) : job.everyMs
    return { again: new Date(context.now.getTime() + wait) }
  })
  if (pollMs <= 0) return
  app.addHook('onReady', () => ensurePending(app.db, app.jobs, job.kind, new Date()))
}

/**
 * Enqueues a `kind` job due at `runAt` unless one is pending already. With
 * `bringForward`, a pending one due later (and not in a runner's hands) is
 * made due at `runAt` instead.
 */
export async function ensurePending(
  db: Kysely<DB>,
  jobs: Pick<JobRunner, 'enqueue'>,
  kind: string,
  runAt: Date,
  options: { bringForward?: boolean } = {},
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await sql`select pg_advisory_xact_lock(hashtext(${`periodic:${kind}`}))`.execute(trx)
    const pending = await trx
      .selectFrom('jobs')
      .select(['id', 'run_at', 'claimed_by'])
      .where('kind', '=', kind)
      .where('done_at', 'is', null)
      .executeTakeFirst()
    if (!pending) {
      await jobs.enqueue(trx, { kind, tenantId: null, runAt })
    } else if (options.bringForward && pending.claimed_by === null && pending.run_at > runAt) {
      await trx.updateTable('jobs').set({ run_at: runAt }).where('id', '=', pending.id).execute()
    }
  })
}
