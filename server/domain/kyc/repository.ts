import { type Kysely, sql, type Transaction } from 'kysely'
import { v7 as uuidv7 } from 'uuid'
import type { KycStatus } from '../../../contract/enums.ts'
import type { KycDocumentType, KycProviderName, KycStatusSource } from '../../../contract/kyc.ts'
import type { DB, KycWebhookEventsTable } from '../../infra/db/schema.ts'
import type { Owner } from '../owner.ts'

type Executor = Kysely<DB> | Transaction<DB>

/** The person's status, the row locked FOR UPDATE: every change of it goes through here first. */
export function lockUser(trx: Transaction<DB>, owner: Owner) {
  return trx
    .selectFrom('users')
    .select(['id', 'tenant_id', 'kyc_status'])
    .where('tenant_id', '=', owner.tenantId)
    .where('id', '=', owner.userId)
    .forUpdate()
    .executeTakeFirst()
}

/** The countries the tenant serves (its configuration); null: every country. */
export async function supportedCountries(db: Executor, tenantId: string) {
  const row = await db
    .selectFrom('tenants')
    .select('supported_countries')
    .where('id', '=', tenantId)
    .executeTakeFirst()
  return row?.supported_countries ?? null
}

export function findStatus(db: Executor, owner: Owner) {
  return db
    .selectFrom('users')
    .select('kyc_status')
    .where('tenant_id', '=', owner.tenantId)
    .where('id', '=', owner.userId)
    .executeTakeFirst()
}

/** A webhook names the person by our user id alone (one Sumsub account serves every tenant). */
export function findUserById(db: Executor, userId: string) {
  return db
    .selectFrom('users')
    .select(['id', 'tenant_id'])
    .where('id', '=', userId)
    .executeTakeFirst()
}

export function setStatus(trx: Transaction<DB>, owner: Owner, status: KycStatus, at: Date) {
  return trx
    .updateTable('users')
    .set({ kyc_status: status, updated_at: at })
    .where('tenant_id', '=', owner.tenantId)
    .where('id', '=', owner.userId)
    .execute()
}

export function insertHistory(
  trx: Transaction<DB>,
  owner: Owner,
  entry: { status: KycStatus; reason: string | null; source: KycStatusSource; occurredAt: Date },
) {
  return trx
    .insertInto('kyc_status_history')
    .values({
      id: uuidv7(),
      tenant_id: owner.tenantId,
      user_id: owner.userId,
      status: entry.status,
      reason: entry.reason,
      source: entry.source,
      occurred_at: entry.occurredAt,
    })
    .execute()
}

/**
 * Newest first, in the order the changes were made here: the id is a UUIDv7,
 * written under the user's row lock. (Not by occurred_at: an event without a
 * provider time is stamped on arrival.)
 */
export function listHistory(db: Executor, owner: Owner, limit: number) {
  return db
    .selectFrom('kyc_status_history')
    .select(['status', 'reason', 'occurred_at'])
    .where('tenant_id', '=', owner.tenantId)
    .where('user_id', '=', owner.userId)
    .orderBy('id', 'desc')
    .limit(limit)
    .execute()
}

/** When the last provider event that moved this person's status happened. */
export async function lastWebhookAt(trx: Transaction<DB>, owner: Owner) {
  const row = await trx
    .selectFrom('kyc_status_history')
    .select('occurred_at')
    .where('tenant_id', '=', owner.tenantId)
    .where('user_id', '=', owner.userId)
    .where('source', '=', 'webhook')
    .orderBy('occurred_at', 'desc')
    .limit(1)
    .executeTakeFirst()
  return row?.occurred_at
}

export function insertVerification(
  trx: Transaction<DB>,
  owner: Owner,
  row: {
    id: string
    provider: KycProviderName
    status: KycStatus
    submittedAt: Date
    applicant?: {
      firstName: string
      lastName: string
      documentType: KycDocumentType
      country: string
    }
  },
) {
  return trx
    .insertInto('kyc_verifications')
    .values({
      id: row.id,
      tenant_id: owner.tenantId,
      user_id: owner.userId,
      provider: row.provider,
      status: row.status,
      submitted_at: row.submittedAt,
      first_name: row.applicant?.firstName ?? null,
      last_name: row.applicant?.lastName ?? null,
      document_type: row.applicant?.documentType ?? null,
      country: row.applicant?.country ?? null,
    })
    .execute()
}

export function findVerification(db: Executor, tenantId: string, id: string) {
  return db
    .selectFrom('kyc_verifications')
    .selectAll()
    .where('tenant_id', '=', tenantId)
    .where('id', '=', id)
    .executeTakeFirst()
}

/** The person's verification still with the provider (PENDING or HOLD), if any. */
export function findOpenVerification(trx: Transaction<DB>, owner: Owner) {
  return trx
    .selectFrom('kyc_verifications')
    .select(['id', 'status'])
    .where('tenant_id', '=', owner.tenantId)
    .where('user_id', '=', owner.userId)
    .where('status', 'in', ['PENDING', 'HOLD'])
    .orderBy('submitted_at', 'desc')
    .limit(1)
    .executeTakeFirst()
}

/** The names the person verified with, from their latest submission that carried any (the sandbox screen's). */
export function verifiedName(trx: Transaction<DB>, owner: Owner) {
  return trx
    .selectFrom('kyc_verifications')
    .select(['first_name', 'last_name'])
    .where('tenant_id', '=', owner.tenantId)
    .where('user_id', '=', owner.userId)
    .where('first_name', 'is not', null)
    .orderBy('submitted_at', 'desc')
    .limit(1)
    .executeTakeFirst()
}

/**
 * Gives the profile the verified name where it has none (null or blank):
 * a name the person typed themselves is theirs to keep.
 */
export function fillProfileName(
  trx: Transaction<DB>,
  owner: Owner,
  name: { first_name: string | null; last_name: string | null },
) {
  return trx
    .updateTable('user_profiles')
    .set({
      first_name: sql<string | null>`coalesce(nullif(trim(first_name), ''), ${name.first_name})`,
      last_name: sql<string | null>`coalesce(nullif(trim(last_name), ''), ${name.last_name})`,
      updated_at: new Date(),
    })
    .where('user_id', '=', owner.userId)
    .where('tenant_id', '=', owner.tenantId)
    .where((eb) =>
      eb.or([
        eb(sql`nullif(trim(first_name), '')`, 'is', null),
        eb(sql`nullif(trim(last_name), '')`, 'is', null),
      ]),
    )
    .execute()
}

export function updateVerification(
  trx: Transaction<DB>,
  id: string,
  changes: { status: KycStatus; decidedAt: Date | null },
) {
  return trx
    .updateTable('kyc_verifications')
    .set({ status: changes.status, decided_at: changes.decidedAt })
    .where('id', '=', id)
    .execute()
}

/** Records a webhook event once; false when its key was already there (a redelivery). */
export async function claimWebhookEvent(
  trx: Transaction<DB>,
  event: Omit<KycWebhookEventsTable, 'received_at'>,
): Promise<boolean> {
  const inserted = await trx
    .insertInto('kyc_webhook_events')
    .values(event)
    .onConflict((oc) => oc.column('event_key').doNothing())
    .returning('event_key')
    .executeTakeFirst()
  return inserted !== undefined
}

export function setWebhookOutcome(
  trx: Transaction<DB>,
  eventKey: string,
  outcome: KycWebhookEventsTable['outcome'],
) {
  return trx
    .updateTable('kyc_webhook_events')
    .set({ outcome })
    .where('event_key', '=', eventKey)
    .execute()
}
