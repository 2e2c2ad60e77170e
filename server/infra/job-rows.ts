import { type Kysely, sql, type Transaction, type Updateable } from 'kysely'
import { v7 as uuidv7 } from 'uuid'
import type { DB } from './db/schema.ts'

/**
 * The statements on `jobs` (migration 0005): a job's row written, claimed,
 * its lease renewed or handed back, and finished. The runner that decides
 * when is jobs.ts; every update here is guarded by the runner's id in
 * `claimed_by`, so a runner that lost a lease changes nothing.
 */

export type Executor = Kysely<DB> | Transaction<DB>

export interface Job {
  id: string
  kind: string
  tenantId: string | null
  payload: Record<string, unknown>
  /** This try's number, from 1; reset after each successful step. */
  attempt: number
}

export interface EnqueueInput {
  kind: string
  tenantId: string | null
  payload?: Record<string, unknown>
  /** Default: due at once (now on the app's clock). */
  runAt?: Date
}

/** Adds a job, in the caller's transaction when given one (so it commits with the work). */
export async function enqueue(db: Executor, input: EnqueueInput): Promise<string> {
  const row = jobRow(input)
  await db.insertInto('jobs').values(row).execute()
  return row.id
}

/** Adds jobs in one statement, in the caller's transaction (none: nothing written). */
export async function enqueueAll(db: Executor, inputs: EnqueueInput[]): Promise<void> {
  if (inputs.length === 0) return
  await db.insertInto('jobs').values(inputs.map(jobRow)).execute()
}

/** A job's insert, for a statement that writes other rows too (db/together.ts). */
export const enqueueWrite = (db: Executor, input: EnqueueInput) =>
  db.insertInto('jobs').values(jobRow(input))

/** A new job's row, for a caller that writes it in a statement of its own making. */
export const jobRow = (input: EnqueueInput) => ({
  id: uuidv7(),
  tenant_id: input.tenantId,
  kind: input.kind,
  payload: JSON.stringify(input.payload ?? {}),
  // The app's clock, like every due-ness test (runDue): one clock, whatever the database's says.
  run_at: input.runAt ?? new Date(),
})

/**
 * Claims up to `limit` due jobs of `kinds` for `runner` in one statement,
 * the longest due first: locks them (skipping those another runner holds),
 * pushes their run_at out to `until` (the lease), names the runner and
 * counts the attempt.
 */
export async function claimDue(
  db: Kysely<DB>,
  claim: { kinds: string[]; now: Date; limit: number; until: Date; runner: string },
): Promise<Job[]> {
  const { rows } = await sql<{
    id: string
    kind: string
    tenant_id: string | null
    payload: Record<string, unknown>
    attempts: number
    due_at: Date
  }>`
    with due as (
      select id, run_at from jobs
      where done_at is null and run_at <= ${claim.now} and kind in (${sql.join(claim.kinds)})
      order by run_at
      limit ${claim.limit}
      for update skip locked
    )
    update jobs set run_at = ${claim.until}, attempts = jobs.attempts + 1,
      claimed_by = ${claim.runner}
    from due where jobs.id = due.id
    returning jobs.id, jobs.kind, jobs.tenant_id, jobs.payload, jobs.attempts, due.run_at as due_at
  `.execute(db)
  // Returned in no particular order: the longest due first, as claimed.
  return rows
    .sort((a, b) => a.due_at.getTime() - b.due_at.getTime() || (a.id < b.id ? -1 : 1))
    .map((row) => ({
      id: row.id,
      kind: row.kind,
      tenantId: row.tenant_id,
      payload: row.payload,
      attempt: row.attempts,
    }))
}

/** Pushes the lease of the runner's jobs among `ids` out to `until`. */
export async function renewLeases(db: Kysely<DB>, ids: string[], until: Date, runner: string) {
  await db
    .updateTable('jobs')
    .set({ run_at: until })
    .where('id', 'in', ids)
    .where('claimed_by', '=', runner)
    .where('done_at', 'is', null)
    .execute()
}

/** Hands back the runner's jobs among `ids`, due at `now`, their attempt uncounted. */
export async function releaseJobs(db: Kysely<DB>, ids: string[], now: Date, runner: string) {
  await db
    .updateTable('jobs')
    .set((eb) => ({ run_at: now, attempts: eb('attempts', '-', 1), claimed_by: null }))
    .where('id', 'in', ids)
    .where('claimed_by', '=', runner)
    .where('done_at', 'is', null)
    .execute()
}

/** Updates the jobs among `ids` the runner still holds, and lets go of them; answers how many. */
export async function finishJobs(
  db: Kysely<DB>,
  ids: string[],
  runner: string,
  changes: Updateable<DB['jobs']>,
): Promise<number> {
  const result = await db
    .updateTable('jobs')
    .set(changes)
    .set({ claimed_by: null })
    .where('id', 'in', ids)
    .where('claimed_by', '=', runner)
    .executeTakeFirst()
  return Number(result.numUpdatedRows)
}
