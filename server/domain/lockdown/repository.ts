import type { Kysely, Transaction } from 'kysely'
import type { LockdownVia } from '../../../contract/lockdown.ts'
import type { DB } from '../../infra/db/schema.ts'
import type { Owner } from '../owner.ts'

type Executor = Kysely<DB> | Transaction<DB>

const COLUMNS = ['id', 'started_at', 'reason', 'via', 'cards_frozen', 'sessions_ended'] as const

/** The person's active lockdown (lockdowns_active: one indexed row), or undefined. */
export function findActive(db: Executor, owner: Owner) {
  return db
    .selectFrom('lockdowns')
    .select(COLUMNS)
    .where('tenant_id', '=', owner.tenantId)
    .where('user_id', '=', owner.userId)
    .where('lifted_at', 'is', null)
    .executeTakeFirst()
}

/** Locks the person's row: their lockdown starts and lifts one at a time. */
export async function lockPerson(trx: Transaction<DB>, owner: Owner): Promise<void> {
  await trx
    .selectFrom('users')
    .select('id')
    .where('tenant_id', '=', owner.tenantId)
    .where('id', '=', owner.userId)
    .forUpdate()
    .executeTakeFirstOrThrow()
}

/** Whether the person is locked down now: the guard's one lookup (route-guards.ts). */
export async function isLockedDown(db: Executor, owner: Owner): Promise<boolean> {
  return (await findActive(db, owner)) !== undefined
}

/**
 * Freezes every ACTIVE card of the person, marked as the lockdown's, so each
 * is unfrozen by the person on its own; answers how many.
 */
export async function freezeCards(trx: Transaction<DB>, owner: Owner, at: Date): Promise<number> {
  const rows = await trx
    .updateTable('cards')
    .set({ status: 'FROZEN', frozen_by_lockdown: true, updated_at: at })
    .where('tenant_id', '=', owner.tenantId)
    .where('user_id', '=', owner.userId)
    .where('status', '=', 'ACTIVE')
    .returning('id')
    .execute()
  return rows.length
}

export async function insertLockdown(
  trx: Transaction<DB>,
  lockdown: Owner & {
    id: string
    reason: string | null
    via: LockdownVia
    cardsFrozen: number
    sessionsEnded: number
    at: Date
  },
) {
  await trx
    .insertInto('lockdowns')
    .values({
      id: lockdown.id,
      tenant_id: lockdown.tenantId,
      user_id: lockdown.userId,
      reason: lockdown.reason,
      via: lockdown.via,
      cards_frozen: lockdown.cardsFrozen,
      sessions_ended: lockdown.sessionsEnded,
      started_at: lockdown.at,
    })
    .execute()
}

export async function liftLockdown(
  trx: Transaction<DB>,
  id: string,
  lift: { sessionId: string; at: Date },
) {
  await trx
    .updateTable('lockdowns')
    .set({ lifted_at: lift.at, lifted_by_session_id: lift.sessionId })
    .where('id', '=', id)
    .execute()
}

/**
 * Spends a one-tap token's nonce: false when it was spent before (a replay).
 * In the lockdown's transaction, so a failed lockdown spends nothing.
 */
export async function spendLink(
  trx: Transaction<DB>,
  use: { nonce: string; userId: string; at: Date },
): Promise<boolean> {
  const inserted = await trx
    .insertInto('lockdown_link_uses')
    .values({ nonce: use.nonce, user_id: use.userId, used_at: use.at })
    .onConflict((oc) => oc.column('nonce').doNothing())
    .returning('nonce')
    .executeTakeFirst()
  return inserted !== undefined
}

/** The person a token names, with what a tap needs: their tenant, chat and language. */
export function findPerson(db: Executor, userId: string) {
  return db
    .selectFrom('users as u')
    .leftJoin('user_profiles as p', 'p.user_id', 'u.id')
    .select(['u.id', 'u.tenant_id', 'u.telegram_id', 'p.language'])
    .where('u.id', '=', userId)
    .executeTakeFirst()
}
