/** What the card jobs read and write: the courier's delivery and the monthly fee (any owner of the tenant). */
import type { Transaction } from 'kysely'
import type { DeliveryStatus } from '../../../contract/cards.ts'
import type { DB } from '../../infra/db/schema.ts'

/** A card of the tenant, locked, with its delivery. */
export function lockCardForDelivery(trx: Transaction<DB>, tenantId: string, id: string) {
  return trx
    .selectFrom('cards')
    .select(['id', 'status', 'delivery_status'])
    .where('tenant_id', '=', tenantId)
    .where('id', '=', id)
    .forUpdate()
    .executeTakeFirst()
}

export async function setDelivery(
  trx: Transaction<DB>,
  id: string,
  status: DeliveryStatus,
  at: Date,
) {
  await trx
    .updateTable('cards')
    .set({ delivery_status: status, delivery_updated_at: at, updated_at: at })
    .where('id', '=', id)
    .execute()
}

/** A card of the tenant, locked, with what charging its program's monthly fee needs. */
export function lockCardForFee(trx: Transaction<DB>, tenantId: string, id: string) {
  return trx
    .selectFrom('cards as k')
    .innerJoin('fiat_accounts as f', 'f.id', 'k.fiat_account_id')
    .innerJoin('card_programs as p', 'p.id', 'k.program_id')
    .innerJoin('currencies as c', 'c.uuid', 'f.currency_uuid')
    .select([
      'k.id',
      'k.tenant_id',
      'k.user_id',
      'k.wallet_id',
      'k.status',
      'k.fiat_account_id',
      'k.created_at',
      'f.ledger_account_id',
      'f.currency_uuid',
      'c.code as currency',
      'c.decimals',
      'p.fee_monthly_minor',
    ])
    .where('k.tenant_id', '=', tenantId)
    .where('k.id', '=', id)
    .forUpdate('k')
    .executeTakeFirst()
}

/** The 'YYYY-MM' periods whose monthly fee the card was charged (or refused) already. */
export async function monthlyFeePeriods(trx: Transaction<DB>, cardId: string) {
  const rows = await trx
    .selectFrom('card_transactions')
    .select('fee_period')
    .where('card_id', '=', cardId)
    .where('type', '=', 'FEE')
    .where('fee_kind', '=', 'MONTHLY')
    .execute()
  return new Set(rows.map((row) => row.fee_period))
}
