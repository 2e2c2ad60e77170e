import { type Kysely, sql, type Transaction } from 'kysely'
import type { DB, StepUpMethod } from '../../infra/db/schema.ts'
import type { Owner, OwnerSession } from '../owner.ts'

/** SQL of issue 21: passkeys, WebAuthn challenges, step-up stamps, sessions, Telegram biometrics. */

type Executor = Kysely<DB> | Transaction<DB>

export function findRelyingParty(db: Executor, tenantId: string) {
  return db
    .selectFrom('tenants')
    .select(['name', 'webauthn_rp_id', 'webauthn_origins'])
    .where('id', '=', tenantId)
    .executeTakeFirst()
}

export async function insertChallenge(
  db: Executor,
  challenge: {
    challenge: string
    tenantId: string
    purpose: 'register' | 'sign_in' | 'step_up'
    sessionId: string | null
    expiresAt: Date
  },
): Promise<void> {
  await db
    .insertInto('webauthn_challenges')
    .values({
      challenge: challenge.challenge,
      tenant_id: challenge.tenantId,
      purpose: challenge.purpose,
      session_id: challenge.sessionId,
      expires_at: challenge.expiresAt,
    })
    .execute()
}

/**
 * Takes a challenge out of play and says whether it was good: live, of this
 * purpose and tenant, and (for a session's ceremony) of this session. Deleting
 * before the signature is checked makes every challenge single-use: a replayed
 * assertion finds nothing.
 */
export async function takeChallenge(
  db: Executor,
  wanted: {
    challenge: string
    tenantId: string
    purpose: 'register' | 'sign_in' | 'step_up'
    sessionId: string | null
  },
  now: Date,
): Promise<boolean> {
  const row = await db
    .deleteFrom('webauthn_challenges')
    .where('challenge', '=', wanted.challenge)
    .returning(['tenant_id', 'purpose', 'session_id', 'expires_at'])
    .executeTakeFirst()
  return (
    row !== undefined &&
    row.tenant_id === wanted.tenantId &&
    row.purpose === wanted.purpose &&
    row.session_id === wanted.sessionId &&
    row.expires_at > now
  )
}

export async function pruneChallenges(db: Executor, now: Date): Promise<void> {
  await db.deleteFrom('webauthn_challenges').where('expires_at', '<=', now).execute()
}

const passkeyColumns = [
  'id',
  'user_id',
  'credential_id',
  'public_key',
  'sign_count',
  'transports',
  'name',
  'device_type',
  'backed_up',
  'created_at',
  'last_used_at',
] as const

/** How the person is named on their passkey (the authenticator shows it at sign-in). */
export function findAccountNames(db: Executor, owner: Owner) {
  return db
    .selectFrom('users as u')
    .leftJoin('user_profiles as p', 'p.user_id', 'u.id')
    .select(['u.email', 'u.phone', 'p.first_name', 'p.last_name', 'p.username'])
    .where('u.tenant_id', '=', owner.tenantId)
    .where('u.id', '=', owner.userId)
    .executeTakeFirst()
}

export function listPasskeys(db: Executor, owner: Owner) {
  return db
    .selectFrom('passkeys')
    .select(passkeyColumns)
    .where('tenant_id', '=', owner.tenantId)
    .where('user_id', '=', owner.userId)
    .orderBy('created_at')
    .execute()
}

export function findPasskeyByCredential(db: Executor, tenantId: string, credentialId: string) {
  return db
    .selectFrom('passkeys')
    .select(passkeyColumns)
    .where('tenant_id', '=', tenantId)
    .where('credential_id', '=', credentialId)
    .executeTakeFirst()
}

/** Undefined when the tenant already has this credential (registered twice). */
export async function insertPasskey(
  db: Executor,
  passkey: {
    id: string
    tenantId: string
    userId: string
    credentialId: string
    publicKey: Uint8Array
    signCount: number
    transports: string[]
    name: string
    deviceType: 'singleDevice' | 'multiDevice'
    backedUp: boolean
    now: Date
  },
) {
  return db
    .insertInto('passkeys')
    .values({
      id: passkey.id,
      tenant_id: passkey.tenantId,
      user_id: passkey.userId,
      credential_id: passkey.credentialId,
      public_key: passkey.publicKey,
      sign_count: passkey.signCount,
      transports: JSON.stringify(passkey.transports),
      name: passkey.name,
      device_type: passkey.deviceType,
      backed_up: passkey.backedUp,
      created_at: passkey.now,
    })
    .onConflict((oc) => oc.columns(['tenant_id', 'credential_id']).doNothing())
    .returning(passkeyColumns)
    .executeTakeFirst()
}

/**
 * Moves the counter forward from the value the check was made against: of two
 * assertions racing with one counter value, only one goes through.
 */
export async function advancePasskey(
  db: Executor,
  passkey: { id: string; from: number; to: number; backedUp: boolean },
  now: Date,
): Promise<boolean> {
  const result = await db
    .updateTable('passkeys')
    .set({ sign_count: passkey.to, backed_up: passkey.backedUp, last_used_at: now })
    .where('id', '=', passkey.id)
    .where('sign_count', '=', passkey.from)
    .executeTakeFirst()
  return result.numUpdatedRows === 1n
}

/** Deletes the owner's passkey; answers its name, or undefined when there was none. */
export async function deletePasskey(
  db: Executor,
  owner: Owner,
  id: string,
): Promise<string | undefined> {
  const row = await db
    .deleteFrom('passkeys')
    .where('tenant_id', '=', owner.tenantId)
    .where('user_id', '=', owner.userId)
    .where('id', '=', id)
    .returning('name')
    .executeTakeFirst()
  return row?.name
}

/** What the step-up check needs about a live session, in one query. */
export function findStepUpFacts(db: Executor, session: OwnerSession, now: Date) {
  return db
    .selectFrom('sessions as s')
    .innerJoin('users as u', 'u.id', 's.user_id')
    .select((eb) => [
      's.stepped_up_at',
      's.app_env',
      's.sign_in_method',
      's.telegram_auth_date',
      'u.email',
      'u.phone',
      eb
        .exists(eb.selectFrom('passkeys as p').select('p.id').whereRef('p.user_id', '=', 'u.id'))
        .as('has_passkey'),
      eb
        .exists(
          eb
            .selectFrom('telegram_biometric_tokens as t')
            .select('t.id')
            .whereRef('t.session_id', '=', 's.id')
            .where('t.expires_at', '>', now),
        )
        .as('has_telegram_biometrics'),
    ])
    .where('s.id', '=', session.sessionId)
    .where('s.tenant_id', '=', session.tenantId)
    .where('s.user_id', '=', session.userId)
    .where('s.revoked_at', 'is', null)
    .executeTakeFirst()
}

/** The hot path of the guard: only the stamp, by primary key. */
export async function findSteppedUpAt(
  db: Executor,
  session: OwnerSession,
): Promise<Date | null | undefined> {
  const row = await db
    .selectFrom('sessions')
    .select('stepped_up_at')
    .where('id', '=', session.sessionId)
    .where('tenant_id', '=', session.tenantId)
    .where('user_id', '=', session.userId)
    .where('revoked_at', 'is', null)
    .executeTakeFirst()
  return row ? row.stepped_up_at : undefined
}

export async function stampStepUp(
  db: Executor,
  session: OwnerSession,
  method: StepUpMethod,
  now: Date,
): Promise<boolean> {
  const result = await db
    .updateTable('sessions')
    .set({ stepped_up_at: now, step_up_method: method })
    .where('id', '=', session.sessionId)
    .where('tenant_id', '=', session.tenantId)
    .where('user_id', '=', session.userId)
    .where('revoked_at', 'is', null)
    .executeTakeFirst()
  return result.numUpdatedRows === 1n
}

/** The person's live sessions, most recently seen first, one page (`limit + 1` rows: no count). */
export function listSessions(db: Executor, owner: Owner, page: { limit: number; offset: number }) {
  return db
    .selectFrom('sessions')
    .select([
      'id',
      'user_agent',
      'app_env',
      'ip',
      'sign_in_method',
      'new_device',
      'created_at',
      'last_seen_at',
    ])
    .where('tenant_id', '=', owner.tenantId)
    .where('user_id', '=', owner.userId)
    .where('revoked_at', 'is', null)
    .orderBy(sql`coalesce(last_seen_at, created_at)`, 'desc')
    .orderBy('id', 'desc')
    .limit(page.limit + 1)
    .offset(page.offset)
    .execute()
}

export async function countSessions(db: Executor, owner: Owner) {
  const row = await db
    .selectFrom('sessions')
    .select((eb) => eb.fn.countAll<string | number>().as('n'))
    .where('tenant_id', '=', owner.tenantId)
    .where('user_id', '=', owner.userId)
    .where('revoked_at', 'is', null)
    .executeTakeFirstOrThrow()
  return Number(row.n)
}

/**
 * Ends sessions of the person: one (`only`), all but one (`except`), or all.
 * The refresh tokens of an ended session stop working at once (refresh checks
 * the session), and so do its access tokens (auth/authenticate.ts sessionState).
 */
/** Ends the owner's live sessions named by `which`; answers the ids of those it ended. */
export async function revokeSessionIds(
  db: Executor,
  owner: Owner,
  which: { only: string } | { except: string } | 'all',
  reason: string,
  now: Date,
): Promise<string[]> {
  let query = db
    .updateTable('sessions')
    .set({ revoked_at: now, revoke_reason: reason })
    .where('tenant_id', '=', owner.tenantId)
    .where('user_id', '=', owner.userId)
    .where('revoked_at', 'is', null)
  if (which !== 'all') {
    query =
      'only' in which ? query.where('id', '=', which.only) : query.where('id', '!=', which.except)
  }
  const rows = await query.returning('id').execute()
  return rows.map((row) => row.id)
}

/** revokeSessionIds, answering how many it ended. */
export async function revokeSessions(
  ...args: Parameters<typeof revokeSessionIds>
): Promise<number> {
  return (await revokeSessionIds(...args)).length
}

export async function insertTelegramBiometricToken(
  db: Executor,
  session: OwnerSession,
  token: { id: string; hash: string; expiresAt: Date },
): Promise<void> {
  await db
    .insertInto('telegram_biometric_tokens')
    .values({
      id: token.id,
      tenant_id: session.tenantId,
      user_id: session.userId,
      session_id: session.sessionId,
      token_hash: token.hash,
      expires_at: token.expiresAt,
    })
    .execute()
}

/** Whether the token is one this session enrolled and it has not expired; stamps its use. */
export async function matchTelegramBiometricToken(
  db: Executor,
  session: OwnerSession,
  hash: string,
  now: Date,
): Promise<boolean> {
  const result = await db
    .updateTable('telegram_biometric_tokens')
    .set({ last_used_at: now })
    .where('tenant_id', '=', session.tenantId)
    .where('user_id', '=', session.userId)
    .where('session_id', '=', session.sessionId)
    .where('token_hash', '=', hash)
    .where('expires_at', '>', now)
    .executeTakeFirst()
  return result.numUpdatedRows === 1n
}
