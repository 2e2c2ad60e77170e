import type { Insertable, Kysely, Selectable, Transaction } from 'kysely'
import type { PaymentRequestsTable } from '../../infra/db/pay-people-schema.ts'
import type { DB } from '../../infra/db/schema.ts'
import type { Owner } from '../owner.ts'

type Executor = Kysely<DB> | Transaction<DB>

export type PaymentRequestRow = Selectable<PaymentRequestsTable>

export async function insertRequest(
  db: Executor,
  row: Insertable<PaymentRequestsTable>,
): Promise<PaymentRequestRow> {
  return db.insertInto('payment_requests').values(row).returningAll().executeTakeFirstOrThrow()
}

/** Any request of the tenant: anyone with its link may see it. */
export function findRequest(db: Executor, tenantId: string, id: string) {
  return db
    .selectFrom('payment_requests')
    .selectAll()
    .where('tenant_id', '=', tenantId)
    .where('id', '=', id)
    .executeTakeFirst()
}

/** The requester's own, newest first. */
export function findOwnRequests(
  db: Executor,
  owner: Owner,
  page: { limit: number; offset: number },
) {
  return db
    .selectFrom('payment_requests')
    .selectAll()
    .where('tenant_id', '=', owner.tenantId)
    .where('requester_id', '=', owner.userId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(page.limit + 1)
    .offset(page.offset)
    .execute()
}

/**
 * Marks the request paid by `transferId`, only while it is open and not
 * expired. On PostgreSQL a second payer's update waits for the first's
 * transaction and then finds it PAID: false, and the second rolls back.
 */
export async function markPaid(
  trx: Transaction<DB>,
  paid: { id: string; payerId: string; transferId: string; at: Date },
): Promise<boolean> {
  const result = await trx
    .updateTable('payment_requests')
    .set({ status: 'PAID', payer_id: paid.payerId, transfer_id: paid.transferId, paid_at: paid.at })
    .where('id', '=', paid.id)
    .where('status', '=', 'OPEN')
    .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', paid.at)]))
    .executeTakeFirst()
  return result.numUpdatedRows === 1n
}

/** The requester takes an open request back. */
export async function cancelRequest(trx: Executor, owner: Owner, id: string): Promise<boolean> {
  const result = await trx
    .updateTable('payment_requests')
    .set({ status: 'CANCELED' })
    .where('tenant_id', '=', owner.tenantId)
    .where('requester_id', '=', owner.userId)
    .where('id', '=', id)
    .where('status', '=', 'OPEN')
    .executeTakeFirst()
  return result.numUpdatedRows === 1n
}
