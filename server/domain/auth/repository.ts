import { CompiledQuery, type Kysely, type Transaction } from 'kysely'
import { v7 as uuidv7 } from 'uuid'
import type { KycStatus } from '../../../contract/enums.ts'
import type { Products } from '../../../contract/tenants.ts'
import type { DB, SignInMethod, UserProfilesTable } from '../../infra/db/schema.ts'
import type { Owner, OwnerSession } from '../owner.ts'
import { productsFrom } from '../tenants/rules.ts'

type Executor = Kysely<DB> | Transaction<DB>

export type TelegramProfile = Pick<
  UserProfilesTable,
  'first_name' | 'last_name' | 'username' | 'language' | 'photo_url'
> & { is_premium: boolean }

export async function insertUserWithEmail(
  db: Executor,
  user: { tenantId: string; email: string; passwordHash: string },
): Promise<string | undefined> {
  const id = uuidv7()
  const inserted = await db
    .insertInto('users')
    .values({
      id,
      tenant_id: user.tenantId,
      email: user.email,
      password_hash: user.passwordHash,
    })
    .onConflict((oc) =>
      oc.columns(['tenant_id', 'email']).where('email', 'is not', null).doNothing(),
    )
    .returning('id')
    .executeTakeFirst()
  if (!inserted) return undefined
  await db.insertInto('user_profiles').values({ user_id: id, tenant_id: user.tenantId }).execute()
  return id
}

/** A new account for a Telegram user; undefined when the tenant already has one for that id. */
export async function insertUserWithTelegram(
  db: Executor,
  user: { tenantId: string; telegramId: string; profile: TelegramProfile },
): Promise<string | undefined> {
  const id = uuidv7()
  const inserted = await db
    .insertInto('users')
    .values({ id, tenant_id: user.tenantId, telegram_id: user.telegramId })
    .onConflict((oc) =>
      oc.columns(['tenant_id', 'telegram_id']).where('telegram_id', 'is not', null).doNothing(),
    )
    .returning('id')
    .executeTakeFirst()
  if (!inserted) return undefined
  await db
    .insertInto('user_profiles')
    // Telegram makes a username searchable by design: such a person may be found here too.
    .values({ user_id: id, tenant_id: user.tenantId, ...user.profile, people_discoverable: true })
    .execute()
  return id
}

export function findUserByTelegramId(db: Executor, tenantId: string, telegramId: string) {
  return db
    .selectFrom('users')
    .select(['id'])
    .where('tenant_id', '=', tenantId)
    .where('telegram_id', '=', telegramId)
    .executeTakeFirst()
}

/** Whether the tenant blocked the user; undefined when there is no such user. */
export async function isUserBlocked(
  db: Executor,
  tenantId: string,
  userId: string,
): Promise<boolean | undefined> {
  const row = await db
    .selectFrom('users')
    .select('blocked_at')
    .where('tenant_id', '=', tenantId)
    .where('id', '=', userId)
    .executeTakeFirst()
  return row && row.blocked_at !== null
}

export function findUserByEmail(db: Executor, tenantId: string, email: string) {
  return db
    .selectFrom('users')
    .select(['id', 'password_hash'])
    .where('tenant_id', '=', tenantId)
    .where('email', '=', email)
    .executeTakeFirst()
}

export async function insertSession(
  db: Executor,
  session: {
    tenantId: string
    userId: string
    userAgent: string | undefined
    ip?: string | undefined
    appEnv?: 'web' | 'telegram' | undefined
    method: SignInMethod
    deviceId: string
    newDevice: boolean
    now: Date
    /** When Telegram signed the launch data of a Telegram sign-in. */
    telegramAuthDate?: Date | undefined
  },
): Promise<string> {
  const id = uuidv7()
  await db
    .insertInto('sessions')
    .values({
      id,
      tenant_id: session.tenantId,
      user_id: session.userId,
      user_agent: session.userAgent?.slice(0, 512) ?? null,
      ip: session.ip ?? null,
      app_env: session.appEnv ?? null,
      sign_in_method: session.method,
      device_id: session.deviceId,
      new_device: session.newDevice,
      created_at: session.now,
      last_seen_at: session.now,
      // A passkey is a proof of presence: its sign-in counts as one for the
      // step-up window. A password is not (a stolen password must not be enough).
      stepped_up_at: session.method === 'passkey' ? session.now : null,
      step_up_method: session.method === 'passkey' ? 'passkey' : null,
      telegram_auth_date: session.telegramAuthDate ?? null,
    })
    .execute()
  return id
}

/** What a password change needs about the account. */
export function findPasswordFacts(db: Executor, owner: Owner) {
  return db
    .selectFrom('users')
    .select(['email', 'password_hash', 'password_changed_at'])
    .where('tenant_id', '=', owner.tenantId)
    .where('id', '=', owner.userId)
    .executeTakeFirst()
}

export async function setPassword(
  db: Executor,
  owner: Owner,
  passwordHash: string,
  now: Date,
): Promise<void> {
  await db
    .updateTable('users')
    .set({ password_hash: passwordHash, password_changed_at: now, updated_at: now })
    .where('tenant_id', '=', owner.tenantId)
    .where('id', '=', owner.userId)
    .execute()
}

/**
 * Marks Telegram launch data (its signature) used until it would be too old
 * anyway; false when it was used already. Of two uses at once, the second
 * waits on the first's row and then finds it.
 */
export async function spendInitData(db: Executor, hash: string, expiresAt: Date): Promise<boolean> {
  const row = await db
    .insertInto('telegram_init_data_uses')
    .values({ hash, expires_at: expiresAt })
    .onConflict((oc) => oc.column('hash').doNothing())
    .returning('hash')
    .executeTakeFirst()
  return row !== undefined
}

/** Launch data past its age can no longer sign in: no need to remember it. */
export async function forgetExpiredInitData(db: Executor, now: Date): Promise<void> {
  await db.deleteFrom('telegram_init_data_uses').where('expires_at', '<=', now).execute()
}

export async function insertRefreshToken(
  db: Executor,
  token: { id: string; tenantId: string; sessionId: string; hash: string; expiresAt: Date },
): Promise<void> {
  await db
    .insertInto('refresh_tokens')
    .values({
      id: token.id,
      tenant_id: token.tenantId,
      session_id: token.sessionId,
      token_hash: token.hash,
      expires_at: token.expiresAt,
    })
    .execute()
}

/** Locks the token row: two refreshes with one token are decided one after the other. */
export function findRefreshTokenForUpdate(db: Executor, tenantId: string, hash: string) {
  return db
    .selectFrom('refresh_tokens as t')
    .innerJoin('sessions as s', 's.id', 't.session_id')
    .innerJoin('users as u', 'u.id', 's.user_id')
    .select([
      't.id',
      't.session_id',
      't.expires_at',
      't.used_at',
      's.user_id',
      's.revoked_at as session_revoked_at',
      'u.blocked_at as user_blocked_at',
    ])
    .where('t.tenant_id', '=', tenantId)
    .where('t.token_hash', '=', hash)
    .forUpdate('t')
    .executeTakeFirst()
}

export async function markRefreshTokenUsed(
  db: Executor,
  id: string,
  replacedBy: string,
  now: Date,
): Promise<void> {
  await db
    .updateTable('refresh_tokens')
    .set({ used_at: now, replaced_by: replacedBy })
    .where('id', '=', id)
    .execute()
}

/** The one unused token of a session: the head of its rotation chain. */
export function findCurrentRefreshToken(db: Executor, sessionId: string, now: Date) {
  return db
    .selectFrom('refresh_tokens')
    .select(['id'])
    .where('session_id', '=', sessionId)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .orderBy('created_at', 'desc')
    .limit(1)
    .executeTakeFirst()
}

/** "Last seen": stamped at each token refresh, not on every call. */
export async function touchSession(db: Executor, sessionId: string, now: Date): Promise<void> {
  await db.updateTable('sessions').set({ last_seen_at: now }).where('id', '=', sessionId).execute()
}

export async function revokeSession(
  db: Executor,
  sessionId: string,
  reason: string,
  now: Date,
): Promise<void> {
  await db
    .updateTable('sessions')
    .set({ revoked_at: now, revoke_reason: reason })
    .where('id', '=', sessionId)
    .where('revoked_at', 'is', null)
    .execute()
}

/** The signed-in user as `GET /user` shows them, read with the session check. */
export interface SessionUser {
  id: string
  email: string | null
  phone: string | null
  telegram_id: string | null
  kyc_status: KycStatus
  created_at: Date
}

/**
 * The session check's one query (two primary-key lookups), written out: it
 * runs before every protected call, so it skips the query builder.
 */
const SESSION_STATE = `
  select u.id, u.email, u.phone, u.telegram_id, u.kyc_status, u.created_at, u.blocked_at,
    t.products
  from sessions s join users u on u.id = s.user_id join tenants t on t.id = s.tenant_id
  where s.id = $1 and s.tenant_id = $2 and s.user_id = $3 and s.revoked_at is null`

/**
 * The state of the session an access token names, in one query:
 * `ended` when it does not exist in the tenant for that user or was revoked,
 * `blocked` when it is live but the tenant blocked its user; `active` with
 * the user as they are now (what `GET /user` answers needs no second read)
 * and the tenant's products as they are now (what the product gate checks).
 */
export async function sessionState(
  db: Executor,
  claims: OwnerSession,
): Promise<
  | { state: 'ended' }
  | { state: 'blocked' }
  | { state: 'active'; user: SessionUser; products: Products }
> {
  const { rows } = await db.executeQuery<
    SessionUser & { blocked_at: Date | null; products: Record<string, unknown> }
  >(CompiledQuery.raw(SESSION_STATE, [claims.sessionId, claims.tenantId, claims.userId]))
  const row = rows[0]
  if (!row) return { state: 'ended' }
  if (row.blocked_at !== null) return { state: 'blocked' }
  const { blocked_at: _blocked, products, ...user } = row
  return { state: 'active', user, products: productsFrom(products) }
}
