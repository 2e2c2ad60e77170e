import type { Kysely, Transaction } from 'kysely'
import type { ChainId } from '../../../contract/catalog.ts'
import type { DB } from '../../infra/db/schema.ts'
import type { Owner } from '../owner.ts'

type Executor = Kysely<DB> | Transaction<DB>

const CURRENCY_COLUMNS = ['uuid', 'code', 'type', 'decimals', 'chain'] as const

/** The whole catalogue, in its order. */
export function findCatalogue(db: Executor) {
  return db.selectFrom('currencies').select(CURRENCY_COLUMNS).orderBy('sort_order').execute()
}

export type CurrencyRow = Awaited<ReturnType<typeof findCatalogue>>[number]

/** The tenant's wallet an address (normalized) on `chain` belongs to, if any. */
export async function findAddressOwner(
  db: Executor,
  tenantId: string,
  chain: ChainId,
  address: string,
): Promise<string | undefined> {
  const row = await db
    .selectFrom('wallet_addresses')
    .select('wallet_id')
    .where('tenant_id', '=', tenantId)
    .where('chain', '=', chain)
    .where('address', '=', address)
    .executeTakeFirst()
  return row?.wallet_id
}

/** A fiat account in any wallet of the owner, with its program's name and top-up fee. */
export function findFiatAccount(db: Executor, owner: Owner, fiatAccountId: string) {
  return db
    .selectFrom('fiat_accounts as f')
    .innerJoin('wallets as w', (join) =>
      join.onRef('w.id', '=', 'f.wallet_id').onRef('w.tenant_id', '=', 'f.tenant_id'),
    )
    .innerJoin('card_programs as p', (join) =>
      join.onRef('p.id', '=', 'f.program_id').onRef('p.tenant_id', '=', 'f.tenant_id'),
    )
    .select([
      'f.id',
      'f.wallet_id',
      'f.currency_uuid',
      'f.sub_account_type',
      'f.status',
      'p.name as program_name',
      'p.fee_top_up_percent',
    ])
    .where('f.tenant_id', '=', owner.tenantId)
    .where('w.user_id', '=', owner.userId)
    .where('f.id', '=', fiatAccountId)
    .executeTakeFirst()
}

/** The tenant's active card programs: the card top-ups the exchange list offers. */
export function findActivePrograms(db: Executor, tenantId: string) {
  return db
    .selectFrom('card_programs')
    .select(['currency_uuid', 'sub_account_type', 'fee_top_up_percent'])
    .where('tenant_id', '=', tenantId)
    .where('status', '=', 'ACTIVE')
    .execute()
}
