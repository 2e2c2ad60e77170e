import { type Kysely, type Selectable, sql, type Transaction } from 'kysely'
import type { ChainId } from '../../../contract/catalog.ts'
import type { OrderEventCode, OrderStatus, OrderType } from '../../../contract/orders.ts'
import type { TransactionStatus } from '../../../contract/wallets.ts'
import type { DB, OrdersTable } from '../../infra/db/schema.ts'
import type { Write } from '../../infra/db/together.ts'
import { isUniqueViolation } from '../../infra/db/unique-violation.ts'
import type { NewActivity } from '../feed/store.ts'
import type { Owner } from '../owner.ts'

type Executor = Kysely<DB> | Transaction<DB>

export type OrderRow = Selectable<OrdersTable>

// ---------------------------------------------------------------------------
// Orders

/**
 * A placed order's rows — the order, the payer's activity item, its wallet
 * records and its timeline — as writes for one statement with the
 * placement's claim and events (MoneyTransaction.write), the records' foreign
 * key to the item checked at its end. Besides the claim's key, two unique
 * keys can clash, as unique violations: the quote's hash, placed by an order
 * under another key (isQuotePlaced), and the deposit reference, 40 random
 * bits (isReferenceTaken).
 */
export function placedOrderWrites(
  trx: Transaction<DB>,
  order: OrderRow,
  item: NewActivity,
  records: readonly NewRecord[],
  events: readonly NewEvent[],
): Write[] {
  return [
    trx.insertInto('orders').values({
      ...order,
      fees: JSON.stringify(order.fees),
      target: JSON.stringify(order.target),
      payee: order.payee && JSON.stringify(order.payee),
    }),
    trx.insertInto('activities').values(item),
    ...(records.length === 0
      ? []
      : [trx.insertInto('wallet_transactions').values(records.map(recordRow))]),
    trx.insertInto('order_events').values(events.map(eventRow)),
  ]
}

/** The order's deposit reference clashed with another's (unique violation on deposit_reference). */
export const isReferenceTaken = (error: unknown) =>
  isUniqueViolation(error, 'orders_deposit_reference_key')

/** Another order placed the quote (unique violation on the tenant's quote_hash). */
export const isQuotePlaced = (error: unknown) => isUniqueViolation(error, 'orders_quote_hash_key')

/** The order, locked for one step of its life: every writer of an order takes this lock first. */
export function lockOrder(trx: Transaction<DB>, tenantId: string, id: string) {
  return trx
    .selectFrom('orders')
    .selectAll()
    .where('tenant_id', '=', tenantId)
    .where('id', '=', id)
    .forUpdate()
    .executeTakeFirst()
}

/** A person's order; `owner` undefined for the job, which acts for the tenant. */
export function findOrder(db: Executor, tenantId: string, id: string, userId?: string) {
  let query = db
    .selectFrom('orders')
    .selectAll()
    .where('tenant_id', '=', tenantId)
    .where('id', '=', id)
  if (userId) query = query.where('user_id', '=', userId)
  return query.executeTakeFirst()
}

/** The person's order placed under an idempotency key (orders' unique request_id). */
export function findOrderByRequest(db: Executor, owner: Owner, requestId: string) {
  return db
    .selectFrom('orders')
    .selectAll()
    .where('tenant_id', '=', owner.tenantId)
    .where('user_id', '=', owner.userId)
    .where('request_id', '=', requestId)
    .executeTakeFirst()
}

export interface OrderFilter {
  walletId?: string
  orderType?: OrderType
  status?: OrderStatus
}

const ownOrders = (db: Executor, owner: Owner, filter: OrderFilter) => {
  let query = db
    .selectFrom('orders')
    .where('tenant_id', '=', owner.tenantId)
    .where('user_id', '=', owner.userId)
  if (filter.walletId) query = query.where('wallet_id', '=', filter.walletId)
  if (filter.orderType) query = query.where('order_type', '=', filter.orderType)
  if (filter.status) query = query.where('status', '=', filter.status)
  return query
}

/** Newest first, on the orders_user_history index. */
export function findOrders(
  db: Executor,
  owner: Owner,
  filter: OrderFilter,
  page: { limit: number; offset: number },
) {
  return ownOrders(db, owner, filter)
    .selectAll()
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(page.limit)
    .offset(page.offset)
    .execute()
}

export async function countOrders(db: Executor, owner: Owner, filter: OrderFilter) {
  const row = await ownOrders(db, owner, filter)
    .select((eb) => eb.fn.countAll<string>().as('count'))
    .executeTakeFirstOrThrow()
  return Number(row.count)
}

export async function updateOrder(
  trx: Transaction<DB>,
  id: string,
  change: Partial<
    Pick<
      OrderRow,
      'status' | 'submitted_at' | 'rail_reference' | 'tx_hash' | 'failure_code' | 'updated_at'
    >
  >,
) {
  await trx.updateTable('orders').set(change).where('id', '=', id).execute()
}

/**
 * An order's status change, in one statement: the order row, its records'
 * status (they follow the order's), and the next entry of its timeline. Call
 * holding the order's lock (the timeline's seq is max + 1).
 */
export async function moveOrder(
  trx: Transaction<DB>,
  move: {
    orderId: string
    tenantId: string
    status: OrderStatus
    /** Set when given; a move without one keeps the order's. */
    failureCode: string | null
    recordStatus: TransactionStatus
    code: OrderEventCode
    note: string
    at: Date
  },
) {
  const at = move.at.toISOString()
  await sql`
    with moved as (
      update orders
      set status = ${move.status}, updated_at = ${at}::timestamptz,
        failure_code = coalesce(${move.failureCode}, failure_code)
      where id = ${move.orderId}::uuid
    ), records as (
      update wallet_transactions
      set status = ${move.recordStatus}, updated_at = ${at}::timestamptz
      where operation_id = ${move.orderId}::uuid and tenant_id = ${move.tenantId}::uuid
    )
    insert into order_events (order_id, seq, tenant_id, status, code, note, at)
    select ${move.orderId}::uuid, coalesce(max(seq) + 1, 0), ${move.tenantId}::uuid,
      ${move.status}, ${move.code}, ${move.note}, ${at}::timestamptz
    from order_events where order_id = ${move.orderId}::uuid`.execute(trx)
}

/** The deposit order a reference names, in any tenant (references are unique platform-wide), locked. */
export function lockOrderByReference(trx: Transaction<DB>, reference: string) {
  return trx
    .selectFrom('orders')
    .selectAll()
    .where('deposit_reference', '=', reference)
    .forUpdate()
    .executeTakeFirst()
}

// ---------------------------------------------------------------------------
// Timeline

/** Appends a status to the order's timeline; call holding the order's lock (seq is max + 1). */
export async function appendEvent(
  trx: Transaction<DB>,
  event: {
    orderId: string
    tenantId: string
    status: OrderStatus
    code: OrderEventCode
    note: string
    at: Date
  },
) {
  await sql`
    insert into order_events (order_id, seq, tenant_id, status, code, note, at)
    select ${event.orderId}::uuid, coalesce(max(seq) + 1, 0), ${event.tenantId}::uuid,
      ${event.status}, ${event.code}, ${event.note}, ${event.at.toISOString()}::timestamptz
    from order_events where order_id = ${event.orderId}::uuid`.execute(trx)
}

/** An event of a new order's timeline, its `seq` given (appendEvent computes it for a later one). */
export interface NewEvent {
  orderId: string
  seq: number
  tenantId: string
  status: OrderStatus
  code: OrderEventCode
  note: string
  at: Date
}

const eventRow = (event: NewEvent) => ({
  order_id: event.orderId,
  seq: event.seq,
  tenant_id: event.tenantId,
  status: event.status,
  code: event.code,
  note: event.note,
  at: event.at,
})

export function findEvents(db: Executor, orderIds: readonly string[]) {
  if (orderIds.length === 0) return Promise.resolve([])
  return db
    .selectFrom('order_events')
    .select(['order_id', 'status', 'code', 'note', 'at'])
    .where('order_id', 'in', orderIds)
    .orderBy('order_id')
    .orderBy('seq')
    .execute()
}
export type EventRow = Awaited<ReturnType<typeof findEvents>>[number]

// ---------------------------------------------------------------------------
// Records

export interface NewRecord {
  id: string
  tenantId: string
  walletId: string
  type: 'deposit' | 'withdrawal'
  method: 'p2p' | 'crypto' | 'bank_transfer' | 'exchange' | 'sbp'
  recordType: DB['wallet_transactions']['record_type']
  status: TransactionStatus
  currencyUuid: string
  amountMinor: bigint
  address: string | null
  orderId: string
  /** The activity item the record belongs to (order-feed.ts). */
  activityId: string
  at: Date
}

export async function insertRecords(trx: Transaction<DB>, records: readonly NewRecord[]) {
  if (records.length === 0) return
  await trx.insertInto('wallet_transactions').values(records.map(recordRow)).execute()
}

const recordRow = (record: NewRecord) => ({
  id: record.id,
  tenant_id: record.tenantId,
  wallet_id: record.walletId,
  type: record.type,
  method: record.method,
  record_type: record.recordType,
  status: record.status,
  currency_uuid: record.currencyUuid,
  amount_minor: record.amountMinor.toString(),
  address: record.address,
  operation_id: record.orderId,
  activity_id: record.activityId,
  created_at: record.at,
  updated_at: record.at,
})

/** The chain's view of a crypto withdrawal, on its main record. */
export async function setChainProgress(
  trx: Transaction<DB>,
  tenantId: string,
  orderId: string,
  change: { tx_hash?: string; confirmations?: number; updated_at: Date },
) {
  await trx
    .updateTable('wallet_transactions')
    .set(change)
    .where('tenant_id', '=', tenantId)
    .where('operation_id', '=', orderId)
    .where('record_type', '=', 'WITHDRAWAL_CRYPTO_EXTERNAL')
    .execute()
}

// ---------------------------------------------------------------------------
// What the rails need

export function findFiatAccount(db: Executor, tenantId: string, id: string) {
  return db
    .selectFrom('fiat_accounts')
    .select(['id', 'wallet_id', 'status', 'ledger_account_id', 'currency_uuid'])
    .where('tenant_id', '=', tenantId)
    .where('id', '=', id)
    .executeTakeFirst()
}

export async function chainConfirmations(db: Executor, chain: ChainId): Promise<number> {
  const row = await db
    .selectFrom('chains')
    .select('confirmations')
    .where('id', '=', chain)
    .executeTakeFirstOrThrow()
  return row.confirmations
}

export async function tenantName(db: Executor, tenantId: string): Promise<string> {
  const row = await db
    .selectFrom('tenants')
    .select('name')
    .where('id', '=', tenantId)
    .executeTakeFirstOrThrow()
  return row.name
}

export function findCurrencies(db: Executor) {
  return db.selectFrom('currencies').select(['uuid', 'code', 'chain', 'decimals']).execute()
}
export type CurrencyRow = Awaited<ReturnType<typeof findCurrencies>>[number]
