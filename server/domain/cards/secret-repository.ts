/** Card secrets' storage: the stored number, the reveal log, exchange keys and one-time codes. */
import type { Kysely, Transaction } from 'kysely'
import type { DB } from '../../infra/db/schema.ts'

type Executor = Kysely<DB> | Transaction<DB>

/** The stored (encrypted) number and expiry of a card of the tenant: for the printed CVV only. */
export function findStoredNumber(db: Executor, tenantId: string, id: string) {
  return db
    .selectFrom('cards')
    .select(['pan_ciphertext', 'expiry_month', 'expiry_year'])
    .where('tenant_id', '=', tenantId)
    .where('id', '=', id)
    .executeTakeFirst()
}

export async function insertReveal(
  trx: Transaction<DB>,
  row: { id: string; tenantId: string; cardId: string; sessionId: string; kind: 'SECRETS' | 'OTP' },
) {
  await trx
    .insertInto('card_reveals')
    .values({
      id: row.id,
      tenant_id: row.tenantId,
      card_id: row.cardId,
      session_id: row.sessionId,
      kind: row.kind,
    })
    .execute()
}

/** Newest first: the log is read to see what happened lately. */
export function findReveals(db: Executor, cardId: string, page: { limit: number; offset: number }) {
  return db
    .selectFrom('card_reveals')
    .select(['id', 'kind', 'session_id', 'created_at'])
    .where('card_id', '=', cardId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(page.limit)
    .offset(page.offset)
    .execute()
}

export async function countReveals(db: Executor, cardId: string): Promise<number> {
  const row = await db
    .selectFrom('card_reveals')
    .select((eb) => eb.fn.countAll<string>().as('count'))
    .where('card_id', '=', cardId)
    .executeTakeFirstOrThrow()
  return Number(row.count)
}

/** Records an accepted encrypted_key; false when it was seen before (a replay). */
export async function insertExchangeKey(
  trx: Transaction<DB>,
  row: { keyHash: string; tenantId: string; cardId: string },
): Promise<boolean> {
  const inserted = await trx
    .insertInto('card_secret_exchanges')
    .values({ key_hash: row.keyHash, tenant_id: row.tenantId, card_id: row.cardId })
    .onConflict((oc) => oc.column('key_hash').doNothing())
    .returning('key_hash')
    .executeTakeFirst()
  return inserted !== undefined
}

/**
 * Forgets accepted keys recorded before `before`. Safe once `before` is more
 * than twice the freshness window ago: a key accepted at S carried a
 * timestamp T ≥ S − 60 s, … ≤ S + 60 s, so from S + 120 s on it is refused as stale.
 */
export async function pruneExchangeKeys(trx: Transaction<DB>, before: Date) {
  await trx.deleteFrom('card_secret_exchanges').where('created_at', '<', before).execute()
}

export async function deleteOtps(trx: Transaction<DB>, cardId: string) {
  await trx.deleteFrom('card_otps').where('card_id', '=', cardId).execute()
}

export async function insertOtp(
  trx: Transaction<DB>,
  row: { id: string; tenantId: string; cardId: string; codeHash: string; expiresAt: Date },
) {
  await trx
    .insertInto('card_otps')
    .values({
      id: row.id,
      tenant_id: row.tenantId,
      card_id: row.cardId,
      code_hash: row.codeHash,
      expires_at: row.expiresAt,
    })
    .execute()
}

/**
 * The card's current one-time code: the last one issued (the latest expiry;
 * each lives CARD_OTP_TTL_MS), used or not. A newer code supersedes the older.
 */
export function findCurrentOtp(trx: Transaction<DB>, cardId: string) {
  return trx
    .selectFrom('card_otps')
    .select(['id', 'code_hash', 'expires_at', 'used_at'])
    .where('card_id', '=', cardId)
    .orderBy('expires_at', 'desc')
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst()
}

/** Spends a one-time code; false when it was spent already. */
export async function markOtpUsed(trx: Transaction<DB>, id: string, at: Date): Promise<boolean> {
  const row = await trx
    .updateTable('card_otps')
    .set({ used_at: at })
    .where('id', '=', id)
    .where('used_at', 'is', null)
    .returning('id')
    .executeTakeFirst()
  return row !== undefined
}
