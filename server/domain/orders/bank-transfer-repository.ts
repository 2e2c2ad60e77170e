/** The bank transfers deposit orders received: at most one per order, recorded as it arrives. */
import type { Kysely, Transaction } from 'kysely'
import type { DB } from '../../infra/db/schema.ts'

type Executor = Kysely<DB> | Transaction<DB>

export function findBankTransfer(db: Executor, orderId: string) {
  return db
    .selectFrom('bank_transfers')
    .select(['id', 'received_at'])
    .where('order_id', '=', orderId)
    .executeTakeFirst()
}

export async function insertBankTransfer(
  trx: Transaction<DB>,
  transfer: {
    id: string
    tenantId: string
    orderId: string
    reference: string
    amountMinor: bigint
    currencyUuid: string
    senderName: string | null
    senderIban: string | null
    at: Date
  },
) {
  await trx
    .insertInto('bank_transfers')
    .values({
      id: transfer.id,
      tenant_id: transfer.tenantId,
      order_id: transfer.orderId,
      reference: transfer.reference,
      amount_minor: transfer.amountMinor.toString(),
      currency_uuid: transfer.currencyUuid,
      sender_name: transfer.senderName,
      sender_iban: transfer.senderIban,
      received_at: transfer.at,
    })
    .execute()
}
