import { type Kysely, type Selectable, sql, type Transaction } from 'kysely'
import type { ChainId } from '../../../contract/catalog.ts'
import type { OrderEventCode, OrderStatus, OrderType } from '../../../contract/orders.ts'
import type { TransactionStatus } from '../../../contract/wallets.ts'
import type { DB, OrdersTable } from '../../infra/db/schema.ts'
import type { Owner } from '../wallets/repository.ts'

type Executor = Kysely<DB> | Transaction<DB>

export type OrderRow = Selectable<OrdersTable>

// ---------------------------------------------------------------------------
// Quotes (written by quote-repository.ts; an order only reads and locks them)

/**
 * The quote, locked until the placing transaction ends: two requests placing
 * one quote queue here, and the second sees the first's order.
 */
export function lockQuote(trx: Transaction<DB>, tenantId: string, quoteId: string) {
  return trx
    .selectFrom('order_quotes')
    .selectAll()
    .where('tenant_id', '=', tenantId)
    .where('id', '=', quoteId)
    .forUpdate()
    .executeTakeFirst()
}
export type QuoteRow = NonNullable<Awaited<ReturnType<typeof lockQuote>>>

// ---------------------------------------------------------------------------
// Orders

export function findOrderByKey(db: Executor, owner: Owner, requestId: string) {
  return db
    .selectFrom('orders')
    .select(['id', 'request_hash', 'first_response'])
    .where('tenant_id', '=', owner.tenantId)
    .where('user_id', '=', owner.userId)
    .where('request_id', '=', requestId)
    .executeTakeFirst()
}

export function findOrderByQuote(db: Executor, tenantId: string, quoteId: string) {
  return db
    .selectFrom('orders')
    .select('id')
    .where('tenant_id', '=', tenantId)
    .where('quote_id', '=', quoteId)
    .executeTakeFirst()
}

export interface NewOrder {
  id: string
  tenantId: string
  userId: string
  quote: QuoteRow
  requestId: string
  requestHash: string
  status: OrderStatus
  note: string | null
  depositReference: string | null
  at: Date
}

/**
 * Inserts the order unless one of its unique keys is taken — the idempotency
 * key (a concurrent request under the same key committed first), the quote or
 * the deposit reference: then it answers undefined and the caller finds out
 * which. On PostgreSQL the insert waits for a concurrent uncommitted holder
 * of the key, so it never misses one.
 */
export function insertOrder(trx: Transaction<DB>, order: NewOrder) {
  const { quote } = order
  const target = quote.target
  return trx
    .insertInto('orders')
    .values({
      id: order.id,
      tenant_id: order.tenantId,
      user_id: order.userId,
      wallet_id: quote.wallet_id,
      order_type: quote.order_type,
      status: order.status,
      quote_id: quote.id,
      request_id: order.requestId,
      request_hash: order.requestHash,
      first_response: null,
      from_currency_uuid: quote.from_currency_uuid,
      to_currency_uuid: quote.to_currency_uuid,
      amount_from_minor: quote.amount_from_minor,
      amount_to_minor: quote.amount_to_minor,
      rate: quote.rate,
      fees: JSON.stringify(quote.fees),
      total_minor: quote.total_minor,
      target: JSON.stringify(target),
      payee: quote.payee && JSON.stringify(quote.payee),
      counterparty_destination_id: target.counterparty_destination_id ?? null,
      fiat_account_id: target.fiat_account_id ?? null,
      note: order.note,
      deposit_reference: order.depositReference,
      created_at: order.at,
      updated_at: order.at,
    })
    .onConflict((oc) => oc.doNothing())
    .returning('id')
    .executeTakeFirst()
}

/** Marks the quote placed, in the placing transaction: the prune never looks at it again. */
export async function markQuotePlaced(
  trx: Transaction<DB>,
  tenantId: string,
  quoteId: string,
  at: Date,
) {
  await trx
    .updateTable('order_quotes')
    .set({ placed_at: at })
    .where('tenant_id', '=', tenantId)
    .where('id', '=', quoteId)
    .execute()
}

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
  > & { first_response?: string },
) {
  await trx.updateTable('orders').set(change).where('id', '=', id).execute()
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
  /** The activity item the record belongs to (activity/record.ts). */
  activityId: string
  at: Date
}

export async function insertRecords(trx: Transaction<DB>, records: readonly NewRecord[]) {
  if (records.length === 0) return
  await trx
    .insertInto('wallet_transactions')
    .values(
      records.map((record) => ({
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
      })),
    )
    .execute()
}

/** Every record of the order follows its status. */
export async function setRecordsStatus(
  trx: Transaction<DB>,
  tenantId: string,
  orderId: string,
  status: TransactionStatus,
  at: Date,
) {
  await trx
    .updateTable('wallet_transactions')
    .set({ status, updated_at: at })
    .where('tenant_id', '=', tenantId)
    .where('operation_id', '=', orderId)
    .execute()
}

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

// ---------------------------------------------------------------------------
// Bank transfers (sandbox)

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
