import { type Kysely, type SelectQueryBuilder, sql } from 'kysely'
import type {
  RECORD_TYPES,
  TRANSACTION_METHODS,
  TRANSACTION_STATUSES,
  TRANSACTION_TYPES,
} from '../../../contract/wallets.ts'
import type { DB } from '../../infra/db/schema.ts'
import { currencyFilter } from './rules.ts'

export interface TransactionFilter {
  type?: (typeof TRANSACTION_TYPES)[number]
  method?: (typeof TRANSACTION_METHODS)[number]
  status?: (typeof TRANSACTION_STATUSES)[number]
  record_type?: (typeof RECORD_TYPES)[number]
  /** A currency uuid, or a code in any letter case (every chain's). */
  currency?: string
  /** ISO 8601; inclusive. Compared in SQL, so microseconds count. */
  from?: string
  /** ISO 8601; exclusive. */
  to?: string
}

/**
 * Where a keyset page stopped: the last row's created_at as PostgreSQL's own
 * text (microseconds; a JS Date keeps only milliseconds and would skip or
 * repeat rows that share a millisecond) and its id.
 */
export interface Cursor {
  createdAt: string
  id: string
}

type Scope = { walletId: string; tenantId: string }

/** The tables under the aliases every history query uses. */
type History = DB & { t: DB['wallet_transactions']; c: DB['currencies'] }

/** The history of one wallet, filtered, with each record's currency joined. */
function history(db: Kysely<DB>, scope: Scope, filter: TransactionFilter) {
  let query = db
    .selectFrom('wallet_transactions as t')
    .innerJoin('currencies as c', 'c.uuid', 't.currency_uuid')
    .where('t.tenant_id', '=', scope.tenantId)
    .where('t.wallet_id', '=', scope.walletId)
  if (filter.type) query = query.where('t.type', '=', filter.type)
  if (filter.method) query = query.where('t.method', '=', filter.method)
  if (filter.status) query = query.where('t.status', '=', filter.status)
  if (filter.record_type) query = query.where('t.record_type', '=', filter.record_type)
  if (filter.currency !== undefined) {
    const currency = currencyFilter(filter.currency)
    query =
      'uuid' in currency
        ? query.where('t.currency_uuid', '=', currency.uuid)
        : query.where('c.code', '=', currency.code)
  }
  if (filter.from) query = query.where('t.created_at', '>=', sql<Date>`${filter.from}::timestamptz`)
  if (filter.to) query = query.where('t.created_at', '<', sql<Date>`${filter.to}::timestamptz`)
  return query
}

// Newest first; the id breaks ties between records of one instant, so the
// order is total and a page boundary never splits or repeats a record. The
// index wallet_transactions_history (wallet_id, created_at desc, id desc) serves it.
const newestFirst = <O>(query: SelectQueryBuilder<History, 't' | 'c', O>) =>
  query.orderBy('t.created_at', 'desc').orderBy('t.id', 'desc')

const selectRecord = <O>(query: SelectQueryBuilder<History, 't' | 'c', O>) =>
  query.select([
    't.id',
    't.wallet_id',
    't.type',
    't.method',
    't.record_type',
    't.status',
    't.currency_uuid',
    'c.code as currency',
    'c.chain',
    'c.decimals',
    't.amount_minor',
    't.address',
    't.tx_hash',
    't.confirmations',
    't.created_at',
    't.updated_at',
    't.activity_id',
  ])

export type TransactionRow = Awaited<ReturnType<typeof findTransaction>> & {}

export function findTransactions(
  db: Kysely<DB>,
  scope: Scope,
  filter: TransactionFilter,
  page: { limit: number; offset: number },
) {
  return newestFirst(selectRecord(history(db, scope, filter)))
    .limit(page.limit)
    .offset(page.offset)
    .execute()
}

export async function countTransactions(
  db: Kysely<DB>,
  scope: Scope,
  filter: TransactionFilter,
): Promise<number> {
  const row = await history(db, scope, filter)
    .select((eb) => eb.fn.countAll<string>().as('count'))
    .executeTakeFirstOrThrow()
  return Number(row.count)
}

/**
 * One keyset page: the `size` records after `after` (older, or the same
 * instant with a smaller id). Each page is its own short query, so an export
 * never holds a connection (PGlite's only one) between pages.
 */
export function findPageAfter(
  db: Kysely<DB>,
  scope: Scope,
  filter: TransactionFilter,
  after: Cursor | undefined,
  size: number,
) {
  let query = selectRecord(history(db, scope, filter)).select(
    sql<string>`t.created_at::text`.as('cursor_at'),
  )
  if (after) {
    query = query.where(
      sql<boolean>`(t.created_at, t.id) < (${after.createdAt}::timestamptz, ${after.id}::uuid)`,
    )
  }
  return newestFirst(query).limit(size).execute()
}

export function findTransaction(db: Kysely<DB>, scope: Scope, id: string) {
  return selectRecord(
    db
      .selectFrom('wallet_transactions as t')
      .innerJoin('currencies as c', 'c.uuid', 't.currency_uuid')
      .where('t.tenant_id', '=', scope.tenantId)
      .where('t.wallet_id', '=', scope.walletId)
      .where('t.id', '=', id),
  ).executeTakeFirst()
}

/** The records one activity item wrote, in any of the owner's wallets, oldest first. */
export function findRecordsOfActivity(db: Kysely<DB>, tenantId: string, activityId: string) {
  return selectRecord(
    db
      .selectFrom('wallet_transactions as t')
      .innerJoin('currencies as c', 'c.uuid', 't.currency_uuid')
      .where('t.tenant_id', '=', tenantId)
      .where('t.activity_id', '=', activityId),
  )
    .orderBy('t.created_at')
    .orderBy('t.id')
    .execute()
}
