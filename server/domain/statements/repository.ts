import { type Insertable, type Kysely, sql, type Transaction, type Updateable } from 'kysely'
import type { DB } from '../../infra/db/schema.ts'
import type { StatementsTable } from '../../infra/db/statements-schema.ts'
import type { Owner } from '../owner.ts'
import type { EntrySource } from './rules.ts'

type Executor = Kysely<DB> | Transaction<DB>

// ---------------------------------------------------------------------------
// The ledger, read: what a statement adds up

/**
 * Per currency, the sum of the accounts' postings booked before `at`: their
 * balance at that instant (the ledger's invariant: a balance is the sum of
 * its postings).
 */
export async function balancesAt(
  db: Executor,
  accounts: readonly string[],
  at: Date,
): Promise<Map<string, bigint>> {
  if (accounts.length === 0) return new Map()
  const rows = await db
    .selectFrom('postings as p')
    .innerJoin('journal_entries as e', 'e.id', 'p.entry_id')
    .select(['p.currency_uuid', sql<string>`sum(p.amount_minor)`.as('sum')])
    .where('p.account_id', 'in', accounts)
    .where('e.created_at', '<', at)
    .groupBy('p.currency_uuid')
    .execute()
  return new Map(rows.map((row) => [row.currency_uuid, BigInt(row.sum)]))
}

/**
 * Every entry booked in [from, to) that changed the accounts, netted per
 * currency: legs between two of them (a hold, a reversal) cancel out and
 * leave nothing, as they leave the money where it was.
 */
export async function movementsIn(
  db: Executor,
  accounts: readonly string[],
  period: { from: Date; to: Date },
) {
  if (accounts.length === 0) return []
  const rows = await db
    .selectFrom('postings as p')
    .innerJoin('journal_entries as e', 'e.id', 'p.entry_id')
    .select([
      'e.id',
      'e.kind',
      'e.idempotency_key',
      'e.created_at',
      'p.currency_uuid',
      sql<string>`sum(p.amount_minor)`.as('amount'),
    ])
    .where('p.account_id', 'in', accounts)
    .where('e.created_at', '>=', period.from)
    .where('e.created_at', '<', period.to)
    .groupBy(['e.id', 'e.kind', 'e.idempotency_key', 'e.created_at', 'p.currency_uuid'])
    .having(sql<boolean>`sum(p.amount_minor) <> 0`)
    .orderBy('e.created_at')
    .orderBy('e.id')
    .execute()
  return rows.map((row) => ({ ...row, amount: BigInt(row.amount) }))
}

/** A wallet's own accounts a statement covers: what is available and what is held for an order. */
export function walletStatementAccounts(db: Executor, tenantId: string, walletId: string) {
  return db
    .selectFrom('ledger_accounts')
    .select('id')
    .where('tenant_id', '=', tenantId)
    .where('wallet_id', '=', walletId)
    .where('kind', 'in', ['user_wallet', 'held'])
    .execute()
}

/** A fiat account's spendable and hold sub-accounts. */
export function fiatAccountLedger(db: Executor, owner: Owner, id: string) {
  return db
    .selectFrom('fiat_accounts as f')
    .innerJoin('wallets as w', 'w.id', 'f.wallet_id')
    .innerJoin('currencies as c', 'c.uuid', 'f.currency_uuid')
    .select([
      'f.id',
      'f.wallet_id',
      'f.iban',
      'f.currency_uuid',
      'c.code as currency',
      'f.ledger_account_id',
      'f.hold_ledger_account_id',
    ])
    .where('f.tenant_id', '=', owner.tenantId)
    .where('w.user_id', '=', owner.userId)
    .where('f.id', '=', id)
    .executeTakeFirst()
}

/** One of the owner's cards, with the account it spends from. */
export function ownedCard(db: Executor, owner: Owner, id: string) {
  return db
    .selectFrom('cards')
    .select(['id', 'last4', 'fiat_account_id', 'nick_name'])
    .where('tenant_id', '=', owner.tenantId)
    .where('user_id', '=', owner.userId)
    .where('id', '=', id)
    .executeTakeFirst()
}

/** The person as their verified identity has them: name and address. */
export function holderOf(db: Executor, userId: string) {
  return db
    .selectFrom('user_profiles')
    .select(['first_name', 'last_name', 'address', 'language'])
    .where('user_id', '=', userId)
    .executeTakeFirst()
}

/** The tenant's name and branding, for the file's header. */
export function tenantOf(db: Executor, tenantId: string) {
  return db
    .selectFrom('tenants')
    .select(['name', 'primary_color', 'logo_url'])
    .where('id', '=', tenantId)
    .executeTakeFirstOrThrow()
}

// ---------------------------------------------------------------------------
// The activity feed, read: what each entry was, in people's words

/**
 * The person's activity items that the entries' operations wrote, by the
 * operation's id (rules.ts entrySource): an order's item, the item of a
 * deposit's or a card payment's record, a SEPA credit's, a card's own fee
 * or returned balance, a monthly fee's record. One query per kind present.
 */
export async function itemsOfSources(
  db: Executor,
  owner: Owner,
  sources: readonly EntrySource[],
): Promise<Map<string, string>> {
  const found = new Map<string, string>()
  const ids = (kind: EntrySource['kind']) => [
    ...new Set(
      sources.flatMap((source) =>
        source.kind !== 'unknown' && source.kind === kind ? [source.id] : [],
      ),
    ),
  ]
  const orders = ids('order')
  if (orders.length > 0) {
    const rows = await db
      .selectFrom('activities')
      .select(['id', 'source_id'])
      .where('tenant_id', '=', owner.tenantId)
      .where('user_id', '=', owner.userId)
      .where('source_type', '=', 'order')
      .where('source_id', 'in', orders)
      .execute()
    for (const row of rows) found.set(`order:${row.source_id}`, row.id)
  }
  const deposits = ids('deposit')
  if (deposits.length > 0) {
    const rows = await db
      .selectFrom('wallet_transactions')
      .select(['id', 'activity_id'])
      .where('tenant_id', '=', owner.tenantId)
      .where('id', 'in', deposits)
      .execute()
    for (const row of rows) if (row.activity_id) found.set(`deposit:${row.id}`, row.activity_id)
  }
  const card = ids('card_transaction')
  const credits = ids('bank_credit')
  if (card.length > 0 || credits.length > 0) {
    const rows = await db
      .selectFrom('card_transactions')
      .select(['id', 'operation_id', 'activity_id'])
      .where('tenant_id', '=', owner.tenantId)
      .where((eb) =>
        eb.or([
          ...(card.length > 0 ? [eb('id', 'in', card)] : []),
          ...(credits.length > 0 ? [eb('operation_id', 'in', credits)] : []),
        ]),
      )
      .execute()
    for (const row of rows) {
      if (!row.activity_id) continue
      found.set(`card_transaction:${row.id}`, row.activity_id)
      if (row.operation_id) found.set(`bank_credit:${row.operation_id}`, row.activity_id)
    }
  }
  const cards = ids('card')
  if (cards.length > 0) {
    const rows = await db
      .selectFrom('activities')
      .select(['id', 'source_id', 'type'])
      .where('tenant_id', '=', owner.tenantId)
      .where('user_id', '=', owner.userId)
      .where('source_type', '=', 'card')
      .where('source_id', 'in', cards)
      .execute()
    for (const row of rows) found.set(`card:${row.source_id}:${row.type}`, row.id)
    // A card on an account paid its issue fee from the account: a FEE card transaction.
    const paid = await db
      .selectFrom('card_transactions')
      .select(['card_id', 'activity_id'])
      .where('tenant_id', '=', owner.tenantId)
      .where('type', '=', 'FEE')
      .where('fee_kind', '=', 'ISSUE')
      .where('card_id', 'in', cards)
      .execute()
    for (const row of paid)
      if (row.activity_id) found.set(`card:${row.card_id}:fee`, row.activity_id)
  }
  const fees = sources.flatMap((source) => (source.kind === 'card_fee' ? [source] : []))
  if (fees.length > 0) {
    const rows = await db
      .selectFrom('card_transactions')
      .select(['card_id', 'fee_period', 'activity_id'])
      .where('tenant_id', '=', owner.tenantId)
      .where('type', '=', 'FEE')
      .where(
        'card_id',
        'in',
        fees.map((fee) => fee.id),
      )
      .execute()
    for (const row of rows) {
      if (row.activity_id && row.fee_period) {
        found.set(`card_fee:${row.card_id}:${row.fee_period}`, row.activity_id)
      }
    }
  }
  return found
}

/** The key itemsOfSources files a source's item under. */
export function sourceKey(source: EntrySource): string | undefined {
  switch (source.kind) {
    case 'card':
      return `card:${source.id}:${source.item}`
    case 'card_fee':
      return `card_fee:${source.id}:${source.period}`
    case 'unknown':
      return undefined
    default:
      return `${source.kind}:${source.id}`
  }
}

/** What the items say, to be worded (wording.ts ItemWords), by id. */
export function itemWords(db: Executor, owner: Owner, ids: readonly string[]) {
  if (ids.length === 0) return Promise.resolve([])
  return db
    .selectFrom('activities as a')
    .innerJoin('currencies as c', 'c.uuid', 'a.currency_uuid')
    .leftJoin('currencies as r', 'r.uuid', 'a.received_currency_uuid')
    .select([
      'a.id',
      'a.type',
      'a.direction',
      'a.counterparty_name',
      'a.merchant_name',
      'a.card_last4',
      'a.address',
      'a.fee_kind',
      'c.code as currency',
      'c.chain',
      'r.code as received_currency',
    ])
    .where('a.tenant_id', '=', owner.tenantId)
    .where('a.user_id', '=', owner.userId)
    .where('a.id', 'in', ids)
    .execute()
}

// ---------------------------------------------------------------------------
// Statements

const STATEMENT_COLUMNS = [
  'id',
  'tenant_id',
  'user_id',
  'scope_type',
  'scope_id',
  'period_from',
  'period_to',
  'format',
  'language',
  'time_zone',
  'status',
  'progress',
  'code',
  'holder_initials',
  'account_last4',
  'sha256',
  'file_name',
  'content_type',
  'request_id',
  'request_hash',
  'created_at',
  'updated_at',
  sql<number | null>`octet_length(file)`.as('size'),
] as const

/** Inserts the statement unless its code is taken (answers false: draw another). */
export async function insertStatement(
  trx: Transaction<DB>,
  row: Insertable<StatementsTable>,
): Promise<boolean> {
  const inserted = await trx
    .insertInto('statements')
    .values(row)
    .onConflict((oc) => oc.column('code').doNothing())
    .returning('id')
    .executeTakeFirst()
  return inserted !== undefined
}

export function findStatement(db: Executor, owner: Owner, id: string) {
  return db
    .selectFrom('statements')
    .select(STATEMENT_COLUMNS)
    .where('tenant_id', '=', owner.tenantId)
    .where('user_id', '=', owner.userId)
    .where('id', '=', id)
    .executeTakeFirst()
}
export type StatementRow = NonNullable<Awaited<ReturnType<typeof findStatement>>>

export function findByRequest(db: Executor, owner: Owner, requestId: string) {
  return db
    .selectFrom('statements')
    .select(STATEMENT_COLUMNS)
    .where('tenant_id', '=', owner.tenantId)
    .where('user_id', '=', owner.userId)
    .where('request_id', '=', requestId)
    .executeTakeFirst()
}

/** The job's view of a statement: any tenant's, by id. */
export function findForJob(db: Executor, id: string) {
  return db
    .selectFrom('statements')
    .select(STATEMENT_COLUMNS)
    .where('id', '=', id)
    .executeTakeFirst()
}

export function findFile(db: Executor, owner: Owner, id: string) {
  return db
    .selectFrom('statements')
    .select(['status', 'file', 'file_name', 'content_type', 'sha256', 'language'])
    .where('tenant_id', '=', owner.tenantId)
    .where('user_id', '=', owner.userId)
    .where('id', '=', id)
    .executeTakeFirst()
}

export async function updateStatement(
  db: Executor,
  id: string,
  change: Updateable<StatementsTable>,
): Promise<void> {
  await db.updateTable('statements').set(change).where('id', '=', id).execute()
}

/** The file a download link names, while the link lasts. */
export function findByLink(db: Executor, linkHash: string, now: Date) {
  return db
    .selectFrom('statements')
    .select(['file', 'file_name', 'content_type', 'sha256', 'language'])
    .where('link_hash', '=', linkHash)
    .where('link_expires_at', '>', now)
    .where('status', '=', 'ready')
    .executeTakeFirst()
}

/** A ready statement, by its code or its file's hash: what the public verify route may read. */
export function findVerifiable(db: Executor, by: { code: string } | { sha256: string }) {
  let query = db
    .selectFrom('statements')
    .select(['code', 'holder_initials', 'account_last4', 'period_from', 'period_to', 'sha256'])
    .where('status', '=', 'ready')
  query = 'code' in by ? query.where('code', '=', by.code) : query.where('sha256', '=', by.sha256)
  return query.executeTakeFirst()
}
