import {
  type Insertable,
  type Kysely,
  type Selectable,
  sql,
  type Transaction,
  type Updateable,
} from 'kysely'
import type { ScheduleRunsTable, SchedulesTable } from '../../infra/db/pay-people-schema.ts'
import type { DB } from '../../infra/db/schema.ts'
import type { Owner } from '../owner.ts'

type Executor = Kysely<DB> | Transaction<DB>

export type ScheduleRow = Selectable<SchedulesTable>
export type RunRow = Selectable<ScheduleRunsTable>

export async function insertSchedule(
  trx: Transaction<DB>,
  row: Insertable<SchedulesTable>,
): Promise<ScheduleRow> {
  return trx.insertInto('schedules').values(row).returningAll().executeTakeFirstOrThrow()
}

/** The person's schedule (a deleted one is gone); another person's finds nothing. */
export function findSchedule(db: Executor, owner: Owner, id: string) {
  return db
    .selectFrom('schedules')
    .selectAll()
    .where('tenant_id', '=', owner.tenantId)
    .where('user_id', '=', owner.userId)
    .where('id', '=', id)
    .where('status', '<>', 'DELETED')
    .executeTakeFirst()
}

/** The schedule, locked: its runs and the person's changes are decided one at a time. */
export function lockSchedule(trx: Transaction<DB>, id: string) {
  return trx.selectFrom('schedules').selectAll().where('id', '=', id).forUpdate().executeTakeFirst()
}

export function findSchedules(db: Executor, owner: Owner, page: { limit: number; offset: number }) {
  return db
    .selectFrom('schedules')
    .selectAll()
    .where('tenant_id', '=', owner.tenantId)
    .where('user_id', '=', owner.userId)
    .where('status', '<>', 'DELETED')
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(page.limit + 1)
    .offset(page.offset)
    .execute()
}

export async function updateSchedule(
  trx: Transaction<DB>,
  id: string,
  change: Updateable<SchedulesTable>,
): Promise<ScheduleRow> {
  return trx
    .updateTable('schedules')
    .set(change)
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow()
}

/**
 * The run of one occurrence, made unless it exists: the unique key
 * (schedule_id, occurrence_at) is what keeps an occurrence to one run. The
 * existing run answers when there is one (`made: false`).
 */
export async function claimRun(
  trx: Transaction<DB>,
  run: Insertable<ScheduleRunsTable>,
): Promise<{ run: RunRow; made: boolean }> {
  const made = await trx
    .insertInto('schedule_runs')
    .values(run)
    .onConflict((oc) => oc.columns(['schedule_id', 'occurrence_at']).doNothing())
    .returningAll()
    .executeTakeFirst()
  if (made) return { run: made, made: true }
  const existing = await trx
    .selectFrom('schedule_runs')
    .selectAll()
    .where('schedule_id', '=', run.schedule_id)
    .where('occurrence_at', '=', run.occurrence_at)
    .executeTakeFirstOrThrow()
  return { run: existing, made: false }
}

/** Ends a RUNNING run; false when another runner ended it first. */
export async function finishRun(
  trx: Transaction<DB>,
  id: string,
  outcome: Pick<Updateable<ScheduleRunsTable>, 'status' | 'reason' | 'order_id' | 'transfer_id'> & {
    finished_at: Date
  },
): Promise<boolean> {
  const result = await trx
    .updateTable('schedule_runs')
    .set(outcome)
    .where('id', '=', id)
    .where('status', '=', 'RUNNING')
    .executeTakeFirst()
  return result.numUpdatedRows === 1n
}

/** The latest runs of each schedule, newest first. */
export async function recentRuns(
  db: Executor,
  scheduleIds: readonly string[],
  perSchedule: number,
): Promise<Map<string, RunRow[]>> {
  const byId = new Map<string, RunRow[]>(scheduleIds.map((id) => [id, []]))
  if (scheduleIds.length === 0) return byId
  // The unique index (schedule_id, occurrence_at) serves the window: no run past the tenth is sent.
  const rows = await db
    .selectFrom((eb) =>
      eb
        .selectFrom('schedule_runs')
        .selectAll()
        .select(
          sql<number>`row_number() over (partition by schedule_id order by occurrence_at desc)`.as(
            'n',
          ),
        )
        .where('schedule_id', 'in', scheduleIds)
        .as('r'),
    )
    .selectAll()
    .where('n', '<=', perSchedule)
    .orderBy('occurrence_at', 'desc')
    .execute()
  for (const row of rows) {
    const { n: _, ...run } = row
    byId.get(row.schedule_id)!.push(run)
  }
  return byId
}

export function userBlocked(db: Executor, owner: Owner) {
  return db
    .selectFrom('users')
    .select('blocked_at')
    .where('tenant_id', '=', owner.tenantId)
    .where('id', '=', owner.userId)
    .executeTakeFirst()
}
