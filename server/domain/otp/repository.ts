import { type Kysely, sql, type Transaction } from 'kysely'
import { v7 as uuidv7 } from 'uuid'
import type { OtpPurpose } from '../../../contract/otp.ts'
import type { DB, OtpConsumedReason } from '../../infra/db/schema.ts'
import type { Owner } from '../owner.ts'
import type { Language } from './messages.ts'
import type { AttemptState, Recipient } from './rules.ts'

type Executor = Kysely<DB> | Transaction<DB>

export interface Scope extends Recipient {
  tenantId: string
}

/**
 * The attempt row of the identifier and purpose, created if new, and locked
 * until the transaction ends: sends and checks for one identifier and
 * purpose go one at a time, so two requests can neither both pass the resend
 * interval nor both spend the same last attempt. Each purpose counts apart:
 * anonymous guesses at sign-in codes never touch the step-up count.
 */
export async function lockAttempts(
  trx: Transaction<DB>,
  scope: Scope,
  purpose: OtpPurpose,
): Promise<AttemptState> {
  const row = await trx
    .insertInto('otp_attempts')
    .values({
      tenant_id: scope.tenantId,
      channel: scope.channel,
      identifier: scope.identifier,
      purpose,
    })
    // A no-op update, so that the row comes back (and is locked) when it already exists.
    .onConflict((oc) =>
      oc
        .columns(['tenant_id', 'channel', 'identifier', 'purpose'])
        .doUpdateSet({ tenant_id: sql.ref('excluded.tenant_id') }),
    )
    .returning(['failed_attempts', 'last_failed_at', 'blocked_until'])
    .executeTakeFirstOrThrow()
  return {
    failedAttempts: row.failed_attempts,
    lastFailedAt: row.last_failed_at,
    blockedUntil: row.blocked_until,
  }
}

export async function saveAttempts(
  trx: Transaction<DB>,
  scope: Scope,
  purpose: OtpPurpose,
  state: AttemptState,
  now: Date,
): Promise<void> {
  await trx
    .updateTable('otp_attempts')
    .set({
      failed_attempts: state.failedAttempts,
      last_failed_at: state.lastFailedAt,
      blocked_until: state.blockedUntil,
      updated_at: now,
    })
    .where('tenant_id', '=', scope.tenantId)
    .where('channel', '=', scope.channel)
    .where('identifier', '=', scope.identifier)
    .where('purpose', '=', purpose)
    .execute()
}

/** When the newest code of the identifier for the purpose was created. */
export async function lastSentAt(
  trx: Transaction<DB>,
  scope: Scope,
  purpose: OtpPurpose,
): Promise<Date | undefined> {
  const row = await trx
    .selectFrom('otp_codes')
    .select('created_at')
    .where('tenant_id', '=', scope.tenantId)
    .where('channel', '=', scope.channel)
    .where('identifier', '=', scope.identifier)
    .where('purpose', '=', purpose)
    .orderBy('created_at', 'desc')
    .limit(1)
    .executeTakeFirst()
  return row?.created_at
}

/** Ends the live code of the identifier for the purpose (a newer code, or a block). */
export async function consumeLiveCodes(
  trx: Transaction<DB>,
  scope: Scope,
  purpose: OtpPurpose,
  reason: Exclude<OtpConsumedReason, 'verified'>,
  now: Date,
): Promise<void> {
  await trx
    .updateTable('otp_codes')
    .set({ consumed_at: now, consumed_reason: reason })
    .where('tenant_id', '=', scope.tenantId)
    .where('channel', '=', scope.channel)
    .where('identifier', '=', scope.identifier)
    .where('purpose', '=', purpose)
    .where('consumed_at', 'is', null)
    .execute()
}

export async function insertCode(
  trx: Transaction<DB>,
  code: Scope & {
    id: string
    purpose: OtpPurpose
    userId: string | null
    codeHash: string
    expiresAt: Date
    now: Date
  },
): Promise<void> {
  await trx
    .insertInto('otp_codes')
    .values({
      id: code.id,
      tenant_id: code.tenantId,
      channel: code.channel,
      identifier: code.identifier,
      purpose: code.purpose,
      user_id: code.userId,
      code_hash: code.codeHash,
      expires_at: code.expiresAt,
      created_at: code.now,
    })
    .execute()
}

/** Removes a code whose message never left: as if it had not been asked for. */
export async function deleteCode(db: Executor, id: string): Promise<void> {
  await db.deleteFrom('otp_codes').where('id', '=', id).execute()
}

/** The one live (unconsumed) code of the identifier for the purpose. */
export function findLiveCode(trx: Transaction<DB>, scope: Scope, purpose: OtpPurpose) {
  return trx
    .selectFrom('otp_codes')
    .select(['id', 'user_id', 'code_hash', 'expires_at'])
    .where('tenant_id', '=', scope.tenantId)
    .where('channel', '=', scope.channel)
    .where('identifier', '=', scope.identifier)
    .where('purpose', '=', purpose)
    .where('consumed_at', 'is', null)
    .executeTakeFirst()
}

export async function markCodeVerified(trx: Transaction<DB>, id: string, now: Date) {
  await trx
    .updateTable('otp_codes')
    .set({ consumed_at: now, consumed_reason: 'verified' })
    .where('id', '=', id)
    .execute()
}

const identifierColumn = (channel: Recipient['channel']) =>
  channel === 'email' ? ('email' as const) : ('phone' as const)

/** `{ email }` or `{ phone }`: the users column a recipient is kept in, with its value. */
const identifierValue = ({ channel, identifier }: Recipient) =>
  channel === 'email' ? { email: identifier } : { phone: identifier }

/** The account that signs in with this identifier, with what sending and signing in need. */
export function findUserByIdentifier(db: Executor, scope: Scope) {
  return db
    .selectFrom('users as u')
    .leftJoin('user_profiles as p', 'p.user_id', 'u.id')
    .select(['u.id', 'u.blocked_at', 'p.language'])
    .where('u.tenant_id', '=', scope.tenantId)
    .where(`u.${identifierColumn(scope.channel)}`, '=', scope.identifier)
    .executeTakeFirst()
}

/** The account's chosen language, for messages to its new contact. */
export async function findUserLanguage(db: Executor, owner: Owner): Promise<Language | null> {
  const row = await db
    .selectFrom('user_profiles')
    .select('language')
    .where('tenant_id', '=', owner.tenantId)
    .where('user_id', '=', owner.userId)
    .executeTakeFirst()
  return row?.language ?? null
}

/**
 * Creates the account that signs in with this identifier, and its empty
 * profile. Returns undefined when the identifier was taken meanwhile (a
 * password sign-up racing this one), leaving the existing account alone.
 */
export async function insertUser(
  trx: Transaction<DB>,
  user: Scope & { language: Language | null },
): Promise<string | undefined> {
  const id = uuidv7()
  const column = identifierColumn(user.channel)
  const inserted = await trx
    .insertInto('users')
    .values({ id, tenant_id: user.tenantId, ...identifierValue(user) })
    .onConflict((oc) => oc.columns(['tenant_id', column]).where(column, 'is not', null).doNothing())
    .returning('id')
    .executeTakeFirst()
  if (!inserted) return undefined
  await trx
    .insertInto('user_profiles')
    .values({ user_id: id, tenant_id: user.tenantId, language: user.language })
    .execute()
  return id
}

/** Another account of the tenant that already has this identifier, if any. */
export function findOtherOwner(db: Executor, scope: Scope, userId: string) {
  return db
    .selectFrom('users')
    .select('id')
    .where('tenant_id', '=', scope.tenantId)
    .where(identifierColumn(scope.channel), '=', scope.identifier)
    .where('id', '!=', userId)
    .executeTakeFirst()
}

/** The account's current identifier on the channel (null when it has none yet). */
export async function findContact(
  db: Executor,
  owner: Owner,
  channel: Recipient['channel'],
): Promise<string | null | undefined> {
  const row = await db
    .selectFrom('users')
    .select(['email', 'phone'])
    .where('tenant_id', '=', owner.tenantId)
    .where('id', '=', owner.userId)
    .executeTakeFirst()
  return row?.[identifierColumn(channel)]
}

export async function setContact(
  trx: Transaction<DB>,
  owner: Owner,
  recipient: Recipient,
  now: Date,
): Promise<void> {
  await trx
    .updateTable('users')
    .set({ ...identifierValue(recipient), updated_at: now })
    .where('tenant_id', '=', owner.tenantId)
    .where('id', '=', owner.userId)
    .execute()
}

/** The name of the unique index a violation names, on both engines; undefined for other errors. */
export function uniqueViolation(error: unknown): string | undefined {
  const { code, constraint } = (error ?? {}) as { code?: unknown; constraint?: unknown }
  return code === '23505' && typeof constraint === 'string' ? constraint : undefined
}
