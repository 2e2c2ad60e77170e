/** The feed's reads: a person's pages and one item (its items are written through feed/store.ts). */
import { type Kysely, type Nullable, type SelectQueryBuilder, sql, type Transaction } from 'kysely'
import type { ActivityStatus, ActivityType } from '../../../contract/activity.ts'
import type { DB } from '../../infra/db/schema.ts'
import type { Owner } from '../owner.ts'
import type { ActivityCursor } from './rules.ts'

type Executor = Kysely<DB> | Transaction<DB>

type Feed = DB & {
  a: DB['activities']
  c: DB['currencies']
  r: Nullable<DB['currencies']>
}

/** What a page narrows to: always one person's, then perhaps one wallet, card or account. */
export interface FeedScope extends Owner {
  walletId?: string
  cardId?: string
  fiatAccountId?: string
}

export interface FeedFilter {
  type?: ActivityType
  /** Upper-case code of the amount's or the received currency. */
  currency?: string
  /** A LIKE pattern over `search` (rules.ts searchPattern). */
  search?: string
  /** When it happened: `from` inclusive, `to` exclusive, ISO 8601. */
  from?: string
  to?: string
  /** Bounds of the amount in its own currency, inclusive, plain decimals. */
  min?: string
  max?: string
  status?: ActivityStatus
  /**
   * Few items match (fewInAmountRange): sort them rather than walk the feed,
   * whose index the planner would otherwise follow, filtering as it goes.
   */
  sortMatches?: boolean
}

/** The most items of an amount range a page sorts; more, and walking the feed finds a page sooner. */
export const AMOUNT_RANGE_SORTED = 2_000

/**
 * Whether the person has at most AMOUNT_RANGE_SORTED items in the amount
 * range: counted on activities_person_amount, never past the cap. The
 * planner cannot know it — it takes matches to be spread over the feed and
 * walks the feed expecting a page soon, while a narrow range's few items may
 * all be years down it.
 */
export async function fewInAmountRange(
  db: Executor,
  owner: Owner,
  range: { min?: string; max?: string },
): Promise<boolean> {
  let inner = db
    .selectFrom('activities')
    .select(sql.lit(1).as('one'))
    .where('tenant_id', '=', owner.tenantId)
    .where('user_id', '=', owner.userId)
  if (range.min) inner = inner.where(sql<boolean>`amount_value >= ${range.min}::numeric`)
  if (range.max) inner = inner.where(sql<boolean>`amount_value <= ${range.max}::numeric`)
  const row = await db
    .selectFrom(inner.limit(AMOUNT_RANGE_SORTED + 1).as('m'))
    .select((eb) => eb.fn.countAll<string>().as('count'))
    .executeTakeFirstOrThrow()
  return Number(row.count) <= AMOUNT_RANGE_SORTED
}

function items(db: Executor, owner: Owner) {
  return db
    .selectFrom('activities as a')
    .innerJoin('currencies as c', 'c.uuid', 'a.currency_uuid')
    .leftJoin('currencies as r', 'r.uuid', 'a.received_currency_uuid')
    .where('a.tenant_id', '=', owner.tenantId)
    .where('a.user_id', '=', owner.userId)
}

const selectItem = <O>(query: SelectQueryBuilder<Feed, 'a' | 'c' | 'r', O>) =>
  query.select([
    'a.id',
    'a.type',
    'a.status',
    'a.direction',
    'a.source_type',
    'a.source_id',
    'a.order_type',
    'a.wallet_id',
    'a.counter_wallet_id',
    'a.card_id',
    'a.fiat_account_id',
    'a.card_last4',
    'a.currency_uuid',
    'c.code as currency',
    'c.chain',
    'c.decimals',
    'a.amount_minor',
    'a.fee_minor',
    'a.refunded_minor',
    'a.received_currency_uuid',
    'r.code as received_currency',
    'r.chain as received_chain',
    'r.decimals as received_decimals',
    'a.received_minor',
    'a.rate',
    'a.counterparty_name',
    'a.merchant_name',
    'a.merchant_mcc',
    'a.merchant_city',
    'a.merchant_country',
    'a.address',
    'a.reference',
    'a.tx_hash',
    'a.note',
    'a.confirmations',
    'a.required_confirmations',
    'a.fee_kind',
    'a.failure_code',
    'a.card_channel',
    'a.dispute_id',
    'a.dispute_status',
    'a.created_at',
    'a.updated_at',
    sql<string>`a.created_at::text`.as('cursor_at'),
  ])

/**
 * One keyset page of a feed: the `size` items after `after`, newest first.
 * Each branch walks one index from its start (activities_person_feed,
 * _wallet_feed, _card_feed, _account_feed) and stops after `size` matches. A
 * wallet's feed is two such walks — items of the wallet, and items whose
 * other side it is — merged: never an OR, which would sort the whole wallet.
 */
export function findPage(
  db: Executor,
  scope: FeedScope,
  filter: FeedFilter,
  after: ActivityCursor | undefined,
  size: number,
) {
  const branch = (narrow: (query: ReturnType<typeof items>) => ReturnType<typeof items>) => {
    let query = narrow(items(db, scope))
    if (scope.cardId) query = query.where('a.card_id', '=', scope.cardId)
    if (scope.fiatAccountId) query = query.where('a.fiat_account_id', '=', scope.fiatAccountId)
    if (filter.type) query = query.where('a.type', '=', filter.type)
    if (filter.currency) {
      const code = filter.currency
      query = query.where((eb) => eb.or([eb('c.code', '=', code), eb('r.code', '=', code)]))
    }
    if (filter.search) query = query.where('a.search', 'like', filter.search)
    if (filter.status) query = query.where('a.status', '=', filter.status)
    if (filter.from) query = query.where('a.created_at', '>=', new Date(filter.from))
    if (filter.to) query = query.where('a.created_at', '<', new Date(filter.to))
    // Compared as numeric: a bound is never a float on its way (activities_person_amount).
    if (filter.min) query = query.where(sql<boolean>`a.amount_value >= ${filter.min}::numeric`)
    if (filter.max) query = query.where(sql<boolean>`a.amount_value <= ${filter.max}::numeric`)
    if (after) {
      query = query.where(
        sql<boolean>`(a.created_at, a.id) < (${after.at}::timestamptz, ${after.id}::uuid)`,
      )
    }
    // The same order either way; an expression no index holds makes the planner sort the matches.
    const newest = filter.sortMatches
      ? sql<Date>`a.created_at + interval '0 seconds'`
      : sql<Date>`a.created_at`
    return selectItem(query).orderBy(newest, 'desc').orderBy('a.id', 'desc').limit(size)
  }
  const walletId = scope.walletId
  if (walletId === undefined) return branch((query) => query).execute()
  const own = branch((query) => query.where('a.wallet_id', '=', walletId))
  const other = branch((query) => query.where('a.counter_wallet_id', '=', walletId))
  return db
    .selectFrom(
      db
        .selectFrom(own.as('w'))
        .selectAll()
        .unionAll(db.selectFrom(other.as('o')).selectAll())
        .as('u'),
    )
    .selectAll()
    .orderBy('u.created_at', 'desc')
    .orderBy('u.id', 'desc')
    .limit(size)
    .execute()
}
export type ActivityRow = Awaited<ReturnType<typeof findPage>>[number]

export function findActivity(db: Executor, owner: Owner, id: string) {
  return selectItem(items(db, owner).where('a.id', '=', id))
    .select(['a.timeline'])
    .executeTakeFirst()
}
