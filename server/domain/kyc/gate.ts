import type { Kysely, Transaction } from 'kysely'
import type { DB } from '../../infra/db/schema.ts'
import { KycRequiredError } from './errors.ts'

/**
 * Lets the call through only when the person's identity is APPROVED;
 * otherwise throws KycRequiredError (403 KYC_REQUIRED with `kyc_status`).
 *
 * Inside a transaction the user's row is read FOR SHARE: a status change
 * (which takes the row FOR UPDATE) waits for the gated action to commit, or
 * the action waits for the change — never an action on a status already gone.
 * A missing user reads as UNVERIFIED (the session check answers for it first).
 */
export async function requireApprovedKyc(
  db: Kysely<DB> | Transaction<DB>,
  tenantId: string,
  userId: string,
): Promise<void> {
  let query = db
    .selectFrom('users')
    .select('kyc_status')
    .where('tenant_id', '=', tenantId)
    .where('id', '=', userId)
  if (db.isTransaction) query = query.forShare()
  const row = await query.executeTakeFirst()
  const status = row?.kyc_status ?? 'UNVERIFIED'
  if (status !== 'APPROVED') throw new KycRequiredError(status)
}
