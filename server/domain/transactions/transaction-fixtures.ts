/**
 * Wallet transaction records straight in the database, for the tests and the
 * bench: the read side is tested apart from whatever writes records in
 * production (deposits, orders). No vitest here, so the bench can import it.
 */
import { type Insertable, type InsertObject, type Kysely, sql } from 'kysely'
import { v7 as uuidv7 } from 'uuid'
import type { DB, WalletTransactionsTable } from '../../infra/db/schema.ts'

/** Fixed catalogue uuids (migration 0004). */
export const CURRENCY = {
  BTC: '68e31acb-683c-4237-a1d1-50edfa265bdf',
  ETH: '442c4a1d-5c86-4c6c-bec6-7c8f3cfd7433',
  USDT_ETHEREUM: '2e56e676-1ddf-47f3-8f7f-3b736ad1e971',
  USDT_TRON: 'b3115d89-344b-4d51-abfa-76863eddec04',
  EUR: 'fc3b2351-726b-4cca-abda-4cfdcf917b0b',
} as const

export type TransactionOverrides = Partial<
  Omit<Insertable<WalletTransactionsTable>, 'created_at'>
> & {
  /** A Date, or PostgreSQL timestamptz text when microseconds matter. */
  created_at?: Date | string
}

/** One record with plausible defaults: a completed 1.000000 USDT deposit on Tron, now. */
export function transactionRow(
  wallet: { tenantId: string; walletId: string },
  overrides: TransactionOverrides = {},
): InsertObject<DB, 'wallet_transactions'> & { id: string } {
  const { created_at, ...rest } = overrides
  return {
    id: uuidv7(),
    tenant_id: wallet.tenantId,
    wallet_id: wallet.walletId,
    type: 'deposit',
    method: 'crypto',
    record_type: 'DEPOSIT_CRYPTO_EXTERNAL',
    status: 'complete',
    currency_uuid: CURRENCY.USDT_TRON,
    amount_minor: '1000000',
    address: null,
    tx_hash: null,
    confirmations: null,
    ...rest,
    created_at: sql<Date>`${created_at ?? new Date()}::timestamptz`,
  }
}

/** Inserts the records and returns their ids, in the order given. */
export async function insertTransactions(
  db: Kysely<DB>,
  wallet: { tenantId: string; walletId: string },
  records: TransactionOverrides[],
): Promise<string[]> {
  const rows = records.map((overrides) => transactionRow(wallet, overrides))
  if (rows.length > 0) await db.insertInto('wallet_transactions').values(rows).execute()
  return rows.map((row) => row.id)
}

/**
 * `count` records in one INSERT … SELECT over generate_series, fast on both
 * engines: USDT deposits of i × 0.001, three per second counting back from
 * `newest` (so ties on created_at cross every page boundary), an address and
 * a hash each, and one record in seven pending.
 */
export async function insertGeneratedTransactions(
  db: Kysely<DB>,
  wallet: { tenantId: string; walletId: string },
  count: number,
  options: {
    newest?: Date
    /**
     * ANALYZE afterwards, as a test wants (its app runs no periodic jobs).
     * The bench leaves it to the server's own statistics job (infra/statistics.ts).
     */
    analyze?: boolean
  } = {},
) {
  const newest = options.newest ?? new Date('2025-06-01T00:00:00Z')
  await sql`
    insert into wallet_transactions (id, tenant_id, wallet_id, type, method, record_type, status,
      currency_uuid, amount_minor, address, tx_hash, confirmations, created_at, updated_at)
    select gen_random_uuid(), ${wallet.tenantId}::uuid, ${wallet.walletId}::uuid,
      'deposit', 'crypto', 'DEPOSIT_CRYPTO_EXTERNAL',
      case when i % 7 = 0 then 'pending' else 'complete' end,
      ${CURRENCY.USDT_TRON}::uuid, i * 1000,
      'T' || lpad(i::text, 33, '0'), md5(i::text) || md5(${wallet.walletId} || i::text), 19,
      ${newest.toISOString()}::timestamptz - (i / 3) * interval '1 second',
      ${newest.toISOString()}::timestamptz
    from generate_series(1, ${count}::int) as i`.execute(db)
  // What autovacuum would do after a bulk load. Without statistics the planner
  // guesses one row and sorts the whole wallet for every keyset page (O(n²)
  // over an export) instead of walking wallet_transactions_history.
  if (options.analyze ?? true) await sql`analyze wallet_transactions`.execute(db)
}
