import type { Kysely, Selectable, Transaction } from 'kysely'
import type { ChainId } from '../../../contract/catalog.ts'
import type { DB, OrderQuotesTable, StoredFee } from '../../infra/db/schema.ts'
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

export type QuoteRow = Selectable<OrderQuotesTable>

export interface NewQuote extends Omit<QuoteRow, 'fees' | 'target' | 'placed_at'> {
  fees: StoredFee[]
  target: QuoteRow['target']
}

export function insertQuote(db: Executor, quote: NewQuote): Promise<QuoteRow> {
  return db
    .insertInto('order_quotes')
    .values({
      ...quote,
      fees: JSON.stringify(quote.fees),
      target: JSON.stringify(quote.target),
      // SQL null, not the JSON value null: "pays no one".
      payee: quote.payee && JSON.stringify(quote.payee),
    })
    .returningAll()
    .executeTakeFirstOrThrow()
}

/**
 * Deletes at most `limit` quotes, oldest first, that expired before `before`
 * and that no order placed; answers how many. A placed quote stays: its order
 * references it (orders.quote_id). The scan reads only unplaced quotes (the
 * partial index of migration 0014, `placed_at is null`), so its cost does not
 * grow with the order history; the NOT EXISTS guards the foreign key whatever
 * the mark says. A quote another transaction has locked (one placing it, or a
 * concurrent prune) is skipped, not waited for. An order is never placed on a
 * quote this old (placing refuses an expired one under the same row lock), so
 * none can appear between the check and the delete.
 */
export async function pruneQuotes(
  trx: Transaction<DB>,
  before: Date,
  limit: number,
): Promise<number> {
  const result = await trx
    .deleteFrom('order_quotes')
    .where('id', 'in', (eb) =>
      eb
        .selectFrom('order_quotes as q')
        .select('q.id')
        .where('q.placed_at', 'is', null)
        .where('q.expires_at', '<', before)
        .where((inner) =>
          inner.not(
            inner.exists(
              inner
                .selectFrom('orders as o')
                .select('o.id')
                .whereRef('o.tenant_id', '=', 'q.tenant_id')
                .whereRef('o.quote_id', '=', 'q.id'),
            ),
          ),
        )
        .orderBy('q.expires_at')
        .limit(limit)
        .forUpdate()
        .skipLocked(),
    )
    .executeTakeFirst()
  return Number(result.numDeletedRows)
}

/**
 * The caller's quote, expired or not (the caller decides what expiry means);
 * nothing for another user's. For placing an order (orders/service.ts).
 */
export function findQuote(
  db: Executor,
  tenantId: string,
  userId: string,
  quoteId: string,
): Promise<QuoteRow | undefined> {
  return db
    .selectFrom('order_quotes')
    .selectAll()
    .where('tenant_id', '=', tenantId)
    .where('user_id', '=', userId)
    .where('id', '=', quoteId)
    .executeTakeFirst()
}
