import type { Kysely, Transaction } from 'kysely'
import type { ChainId } from '../../../contract/catalog.ts'
import type { DB } from '../../infra/db/schema.ts'

type Executor = Kysely<DB> | Transaction<DB>

export type DerivationFamily = 'bitcoin' | 'evm' | 'tron' | 'solana'

/**
 * Which index sequence a chain draws from. Ethereum and Polygon derive on one
 * path (m/44'/60'), so they share a sequence: index n is one address on both,
 * and handing it to one wallet only keeps every address to one owner.
 */
export const DERIVATION_FAMILY: Record<ChainId, DerivationFamily> = {
  bitcoin: 'bitcoin',
  ethereum: 'evm',
  polygon: 'evm',
  tron: 'tron',
  solana: 'solana',
}

/**
 * The next unused index of the family, in one statement: the upsert takes the
 * counter row's lock until `trx` ends, so concurrent allocations queue and
 * never share an index (and a rolled-back allocation gives its index back).
 */
export async function allocateIndex(
  trx: Transaction<DB>,
  tenantId: string,
  family: DerivationFamily,
): Promise<number> {
  const row = await trx
    .insertInto('address_index_counters')
    .values({ tenant_id: tenantId, derivation_family: family, next_index: 1 })
    .onConflict((oc) =>
      oc
        .columns(['tenant_id', 'derivation_family'])
        .doUpdateSet((eb) => ({ next_index: eb('address_index_counters.next_index', '+', 1) })),
    )
    .returning('next_index')
    .executeTakeFirstOrThrow()
  return row.next_index - 1
}

const ADDRESS_COLUMNS = ['id', 'wallet_id', 'chain', 'address', 'label', 'created_at'] as const

export function insertAddress(
  trx: Transaction<DB>,
  row: {
    id: string
    tenantId: string
    walletId: string
    chain: ChainId
    address: string
    index: number
    label: string | null
    at: Date
  },
) {
  return trx
    .insertInto('wallet_addresses')
    .values({
      id: row.id,
      tenant_id: row.tenantId,
      wallet_id: row.walletId,
      chain: row.chain,
      address: row.address,
      derivation_index: row.index,
      label: row.label,
      created_at: row.at,
    })
    .returning(ADDRESS_COLUMNS)
    .executeTakeFirstOrThrow()
}

export type AddressRow = Awaited<ReturnType<typeof insertAddress>>

/** Oldest first, so the address a person saw first stays first. */
export function findAddresses(db: Executor, tenantId: string, walletId: string, chain: ChainId) {
  return db
    .selectFrom('wallet_addresses')
    .select(ADDRESS_COLUMNS)
    .where('tenant_id', '=', tenantId)
    .where('wallet_id', '=', walletId)
    .where('chain', '=', chain)
    .orderBy('created_at')
    .orderBy('id')
    .execute()
}
