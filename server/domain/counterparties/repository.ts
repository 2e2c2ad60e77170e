import { type Kysely, type Selectable, sql, type Transaction } from 'kysely'
import type { CounterpartyType, DestinationType } from '../../../contract/counterparties.ts'
import type { CounterpartyDestinationsTable, DB } from '../../infra/db/schema.ts'
import type { CounterpartyFields, DestinationFields } from './rules.ts'

type Executor = Kysely<DB> | Transaction<DB>

export interface Page {
  limit: number
  offset: number
}

/** Where a counterparty lives: rows are read only within their tenant and wallet. */
export interface WalletScope {
  tenantId: string
  walletId: string
}

// ---------------------------------------------------------------------------
// Counterparties

/**
 * The display name in SQL, as counterpartyName() builds it: the legal name, or
 * first and last name joined (the database guarantees each type has its names).
 */
const NAME = sql<string>`coalesce(c.legal_name, c.first_name || ' ' || c.last_name)`

function selectCounterparties(db: Executor, scope: WalletScope) {
  return db
    .selectFrom('counterparties as c')
    .select((eb) => [
      'c.id',
      'c.wallet_id',
      'c.type',
      'c.first_name',
      'c.last_name',
      'c.legal_name',
      'c.email',
      'c.phone',
      'c.country',
      'c.address',
      'c.created_at',
      'c.updated_at',
      eb
        .selectFrom('counterparty_destinations as d')
        .select((sub) => sub.fn.countAll<string>().as('count'))
        .whereRef('d.counterparty_id', '=', 'c.id')
        .where('d.deleted_at', 'is', null)
        .as('destinations_count'),
    ])
    .where('c.tenant_id', '=', scope.tenantId)
    .where('c.wallet_id', '=', scope.walletId)
}

export type CounterpartyRow = Awaited<ReturnType<typeof findCounterparty>> & {}

export function findCounterparty(db: Executor, scope: WalletScope, id: string) {
  return selectCounterparties(db, scope).where('c.id', '=', id).executeTakeFirst()
}

export interface CounterpartyFilter {
  type?: CounterpartyType
  /** Any part of the display name, any letter case. */
  search?: string
}

/** `%` and `_` in what a person typed are letters, not wildcards. */
const likePattern = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`

function filtered(db: Executor, scope: WalletScope, filter: CounterpartyFilter) {
  let query = selectCounterparties(db, scope)
  if (filter.type) query = query.where('c.type', '=', filter.type)
  if (filter.search) query = query.where(NAME, 'ilike', likePattern(filter.search))
  return query
}

/**
 * Alphabetical by display name, ignoring letter case (the database's
 * collation decides between accented letters); the id breaks ties so a page
 * boundary never repeats or skips a row.
 */
export function findCounterparties(
  db: Executor,
  scope: WalletScope,
  filter: CounterpartyFilter,
  page: Page,
) {
  return filtered(db, scope, filter)
    .orderBy(sql`lower(${NAME})`)
    .orderBy('c.id')
    .limit(page.limit)
    .offset(page.offset)
    .execute()
}

export async function countCounterparties(
  db: Executor,
  scope: WalletScope,
  filter: CounterpartyFilter,
): Promise<number> {
  const row = await db
    .selectFrom(filtered(db, scope, filter).as('matching'))
    .select((eb) => eb.fn.countAll<string>().as('count'))
    .executeTakeFirstOrThrow()
  return Number(row.count)
}

const toCounterpartyColumns = (fields: CounterpartyFields) => ({
  type: fields.type,
  first_name: fields.first_name,
  last_name: fields.last_name,
  legal_name: fields.legal_name,
  email: fields.email,
  phone: fields.phone,
  country: fields.country,
  address: fields.address && JSON.stringify(fields.address),
})

export async function insertCounterparty(
  db: Executor,
  scope: WalletScope,
  id: string,
  fields: CounterpartyFields,
  at: Date,
) {
  await db
    .insertInto('counterparties')
    .values({
      id,
      tenant_id: scope.tenantId,
      wallet_id: scope.walletId,
      ...toCounterpartyColumns(fields),
      created_at: at,
      updated_at: at,
    })
    .execute()
}

/** The type never changes; it is written back as it was. */
export async function updateCounterparty(
  db: Executor,
  scope: WalletScope,
  id: string,
  fields: CounterpartyFields,
) {
  await db
    .updateTable('counterparties')
    .set({ ...toCounterpartyColumns(fields), updated_at: sql<Date>`now()` })
    .where('tenant_id', '=', scope.tenantId)
    .where('wallet_id', '=', scope.walletId)
    .where('id', '=', id)
    .execute()
}

// ---------------------------------------------------------------------------
// Destinations

export type DestinationRow = Selectable<CounterpartyDestinationsTable>

/** Where a destination lives. */
export interface CounterpartyScope {
  tenantId: string
  counterpartyId: string
}

function selectDestinations(db: Executor, scope: CounterpartyScope) {
  return db
    .selectFrom('counterparty_destinations')
    .selectAll()
    .where('tenant_id', '=', scope.tenantId)
    .where('counterparty_id', '=', scope.counterpartyId)
    .where('deleted_at', 'is', null)
}

/** A live destination; `lock` takes its row FOR UPDATE until the transaction ends. */
export function findDestination(
  db: Executor,
  scope: CounterpartyScope,
  id: string,
  options: { lock?: boolean } = {},
) {
  const query = selectDestinations(db, scope).where('id', '=', id)
  return (options.lock ? query.forUpdate() : query).executeTakeFirst()
}

/** Oldest first: a new destination goes to the end, so pages already seen do not shift. */
export function findDestinations(
  db: Executor,
  scope: CounterpartyScope,
  filter: { type?: DestinationType },
  page: Page,
) {
  let query = selectDestinations(db, scope)
  if (filter.type) query = query.where('type', '=', filter.type)
  return query.orderBy('created_at').orderBy('id').limit(page.limit).offset(page.offset).execute()
}

export async function countDestinations(
  db: Executor,
  scope: CounterpartyScope,
  filter: { type?: DestinationType },
): Promise<number> {
  let query = db
    .selectFrom('counterparty_destinations')
    .select((eb) => eb.fn.countAll<string>().as('count'))
    .where('tenant_id', '=', scope.tenantId)
    .where('counterparty_id', '=', scope.counterpartyId)
    .where('deleted_at', 'is', null)
  if (filter.type) query = query.where('type', '=', filter.type)
  return Number((await query.executeTakeFirstOrThrow()).count)
}

const toDestinationColumns = (fields: DestinationFields) => ({
  label: fields.label,
  iban: fields.iban,
  bic: fields.bic,
  account_number: fields.account_number,
  routing_number: fields.routing_number,
  account_type: fields.account_type,
  bank_name: fields.bank_name,
  bank_country: fields.bank_country,
  chain: fields.chain,
  address: fields.address,
  target_wallet_id: fields.wallet_uuid,
})

/** The stored row under the request's field names (target_wallet_id is wallet_uuid). */
export const destinationFields = (row: DestinationRow): DestinationFields => ({
  label: row.label,
  iban: row.iban,
  bic: row.bic,
  account_number: row.account_number,
  routing_number: row.routing_number,
  account_type: row.account_type,
  bank_name: row.bank_name,
  bank_country: row.bank_country,
  chain: row.chain,
  address: row.address,
  wallet_uuid: row.target_wallet_id,
})

export function insertDestination(
  db: Executor,
  scope: CounterpartyScope,
  id: string,
  type: DestinationType,
  fields: DestinationFields,
  at: Date,
) {
  return db
    .insertInto('counterparty_destinations')
    .values({
      id,
      tenant_id: scope.tenantId,
      counterparty_id: scope.counterpartyId,
      type,
      ...toDestinationColumns(fields),
      created_at: at,
      updated_at: at,
    })
    .returningAll()
    .executeTakeFirstOrThrow()
}

export function updateDestination(
  db: Executor,
  scope: CounterpartyScope,
  id: string,
  fields: DestinationFields,
) {
  return db
    .updateTable('counterparty_destinations')
    .set({ ...toDestinationColumns(fields), updated_at: sql<Date>`now()` })
    .where('tenant_id', '=', scope.tenantId)
    .where('counterparty_id', '=', scope.counterpartyId)
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow()
}

export async function markDestinationDeleted(db: Executor, scope: CounterpartyScope, id: string) {
  await db
    .updateTable('counterparty_destinations')
    .set({ deleted_at: sql<Date>`now()`, updated_at: sql<Date>`now()` })
    .where('tenant_id', '=', scope.tenantId)
    .where('counterparty_id', '=', scope.counterpartyId)
    .where('id', '=', id)
    .execute()
}

/** Does an order that is not final yet (NEW or PENDING) pay this destination? */
export async function hasOpenOrders(
  db: Executor,
  tenantId: string,
  destinationId: string,
): Promise<boolean> {
  const row = await db
    .selectFrom('orders')
    .select('id')
    .where('tenant_id', '=', tenantId)
    .where('counterparty_destination_id', '=', destinationId)
    .where('status', 'in', ['NEW', 'PENDING'])
    .limit(1)
    .executeTakeFirst()
  return row !== undefined
}

/** Any user's wallet, as long as it is the tenant's: what an internal destination may pay. */
export async function walletExistsInTenant(
  db: Executor,
  tenantId: string,
  walletId: string,
): Promise<boolean> {
  const row = await db
    .selectFrom('wallets')
    .select('id')
    .where('tenant_id', '=', tenantId)
    .where('id', '=', walletId)
    .executeTakeFirst()
  return row !== undefined
}

export interface DestinationLookup {
  tenantId: string
  userId: string
  walletId?: string
  destinationId: string
}

/**
 * A live destination the user may pay, with its counterparty's names and
 * source wallet: through counterparty and wallet, both the user's.
 */
export function findOwnedDestination(
  db: Executor,
  lookup: DestinationLookup,
  options: { lock?: boolean } = {},
) {
  let query = db
    .selectFrom('counterparty_destinations as d')
    .innerJoin('counterparties as c', (join) =>
      join.onRef('c.tenant_id', '=', 'd.tenant_id').onRef('c.id', '=', 'd.counterparty_id'),
    )
    .innerJoin('wallets as w', (join) =>
      join.onRef('w.tenant_id', '=', 'c.tenant_id').onRef('w.id', '=', 'c.wallet_id'),
    )
    .selectAll('d')
    .select([
      'c.wallet_id',
      'c.type as counterparty_type',
      'c.first_name',
      'c.last_name',
      'c.legal_name',
    ])
    .where('d.tenant_id', '=', lookup.tenantId)
    .where('d.id', '=', lookup.destinationId)
    .where('d.deleted_at', 'is', null)
    .where('w.user_id', '=', lookup.userId)
  if (lookup.walletId !== undefined) query = query.where('c.wallet_id', '=', lookup.walletId)
  // Only the destination's row: what DELETE locks, so the two queue.
  return (options.lock ? query.forShare('d') : query).executeTakeFirst()
}
