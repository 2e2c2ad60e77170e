import type { Kysely, Selectable, Transaction } from 'kysely'
import type { ApiKeyRole } from '../../../contract/developer.ts'
import type { ApiKeysTable, DB } from '../../infra/db/schema.ts'
import type { Owner, OwnerSession } from '../owner.ts'

type Executor = Kysely<DB> | Transaction<DB>

/** A key with its current secret's public id and the end of the previous secret, if any. */
export type KeyRow = Selectable<ApiKeysTable> & {
  public_id: string
  previous_expires_at: Date | null
}

function selectKeys(db: Executor, owner: Owner, now: Date) {
  return db
    .selectFrom('api_keys as k')
    .innerJoin('api_key_secrets as s', (join) =>
      join.onRef('s.api_key_id', '=', 'k.id').on('s.expires_at', 'is', null),
    )
    .selectAll('k')
    .select('s.public_id')
    .select((eb) =>
      eb
        .selectFrom('api_key_secrets as p')
        .select((p) => p.fn.max('p.expires_at').as('at'))
        .whereRef('p.api_key_id', '=', 'k.id')
        .where('p.expires_at', '>', now)
        .as('previous_expires_at'),
    )
    .where('k.tenant_id', '=', owner.tenantId)
    .where('k.user_id', '=', owner.userId)
}

export async function listKeys(
  db: Executor,
  owner: Owner,
  page: { limit: number; offset: number },
  now: Date,
): Promise<{ rows: KeyRow[]; total: number }> {
  const [rows, count] = await Promise.all([
    selectKeys(db, owner, now)
      .orderBy('k.created_at', 'desc')
      .orderBy('k.id', 'desc')
      .limit(page.limit)
      .offset(page.offset)
      .execute(),
    db
      .selectFrom('api_keys')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('tenant_id', '=', owner.tenantId)
      .where('user_id', '=', owner.userId)
      .executeTakeFirstOrThrow(),
  ])
  return { rows: rows as KeyRow[], total: Number(count.n) }
}

export async function getKey(
  db: Executor,
  owner: Owner,
  id: string,
  now: Date,
): Promise<KeyRow | undefined> {
  return (await selectKeys(db, owner, now).where('k.id', '=', id).executeTakeFirst()) as
    | KeyRow
    | undefined
}

/**
 * Locks the owner's user row: key creation and enabling take it first, so
 * two at once cannot both pass the count of enabled keys.
 */
export async function lockOwner(trx: Transaction<DB>, owner: Owner): Promise<void> {
  await trx
    .selectFrom('users')
    .select('id')
    .where('id', '=', owner.userId)
    .where('tenant_id', '=', owner.tenantId)
    .forUpdate()
    .executeTakeFirst()
}

/** How many of the owner's keys are enabled. */
export async function countEnabledKeys(trx: Transaction<DB>, owner: Owner): Promise<number> {
  const row = await trx
    .selectFrom('api_keys')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('tenant_id', '=', owner.tenantId)
    .where('user_id', '=', owner.userId)
    .where('enabled', '=', true)
    .executeTakeFirstOrThrow()
  return Number(row.n)
}

/** Locks the owner's key row for a rotation or an update; undefined when it is not theirs. */
export async function lockKey(trx: Transaction<DB>, owner: Owner, id: string) {
  return trx
    .selectFrom('api_keys')
    .select(['id', 'enabled'])
    .where('id', '=', id)
    .where('tenant_id', '=', owner.tenantId)
    .where('user_id', '=', owner.userId)
    .forUpdate()
    .executeTakeFirst()
}

export async function insertKey(
  trx: Transaction<DB>,
  key: { id: string; owner: OwnerSession; name: string; role: ApiKeyRole; allowedIps: string[] },
  now: Date,
): Promise<void> {
  await trx
    .insertInto('api_keys')
    .values({
      id: key.id,
      tenant_id: key.owner.tenantId,
      user_id: key.owner.userId,
      name: key.name,
      role: key.role,
      allowed_ips: JSON.stringify(key.allowedIps),
      created_at: now,
      updated_at: now,
      created_by_session_id: key.owner.sessionId,
    })
    .execute()
}

export async function insertSecret(
  trx: Transaction<DB>,
  secret: { id: string; keyId: string; publicId: string; hash: string },
  now: Date,
): Promise<void> {
  await trx
    .insertInto('api_key_secrets')
    .values({
      id: secret.id,
      api_key_id: secret.keyId,
      public_id: secret.publicId,
      secret_hash: secret.hash,
      created_at: now,
    })
    .execute()
}

/**
 * Ends every secret of the key by `until` at the latest: the current one,
 * and any older one still in its own overlap (a rotation "now" after a
 * leak must stop them all, not only the newest). Then forgets the secrets
 * that have ended by `now`: rows of dead secrets serve no one.
 */
export async function retireCurrentSecret(
  trx: Transaction<DB>,
  keyId: string,
  until: Date,
  now: Date,
): Promise<void> {
  await trx
    .updateTable('api_key_secrets')
    .set({ expires_at: until })
    .where('api_key_id', '=', keyId)
    .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', until)]))
    .execute()
  await trx
    .deleteFrom('api_key_secrets')
    .where('api_key_id', '=', keyId)
    .where('expires_at', '<=', now)
    .execute()
}

export async function updateKey(
  trx: Transaction<DB>,
  id: string,
  changes: { name?: string; role?: ApiKeyRole; enabled?: boolean; allowedIps?: string[] },
  now: Date,
): Promise<void> {
  await trx
    .updateTable('api_keys')
    .set({
      updated_at: now,
      ...(changes.name !== undefined && { name: changes.name }),
      ...(changes.role !== undefined && { role: changes.role }),
      ...(changes.enabled !== undefined && { enabled: changes.enabled }),
      ...(changes.allowedIps !== undefined && {
        allowed_ips: JSON.stringify(changes.allowedIps),
      }),
    })
    .where('id', '=', id)
    .execute()
}

/** What authenticating a presented key needs, found by its public id. */
export async function findSecret(db: Executor, publicId: string) {
  return db
    .selectFrom('api_key_secrets as s')
    .innerJoin('api_keys as k', 'k.id', 's.api_key_id')
    .innerJoin('users as u', 'u.id', 'k.user_id')
    .select([
      'k.id',
      'k.tenant_id',
      'k.user_id',
      'k.role',
      'k.enabled',
      'k.allowed_ips',
      's.secret_hash',
      's.expires_at',
      'u.blocked_at',
    ])
    .where('s.public_id', '=', publicId)
    .executeTakeFirst()
}

/**
 * Records a use at most once per `everyMs` per key, whichever server saw it:
 * the row itself says when it was last written, so every process skips the
 * same writes, and the time never moves back (two servers may race).
 */
export async function touchLastUsed(
  db: Executor,
  keyId: string,
  at: Date,
  everyMs: number,
): Promise<void> {
  const due = new Date(at.getTime() - everyMs)
  await db
    .updateTable('api_keys')
    .set({ last_used_at: at })
    .where('id', '=', keyId)
    .where((eb) => eb.or([eb('last_used_at', 'is', null), eb('last_used_at', '<=', due)]))
    .execute()
}
