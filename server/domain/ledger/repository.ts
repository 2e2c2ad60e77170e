import { type Kysely, sql, type Transaction } from 'kysely'
import type { DB, LedgerAccountKind } from '../../infra/db/schema.ts'
import type { BalanceDelta, Posting } from './rules.ts'

type Executor = Kysely<DB> | Transaction<DB>

export interface EntryRow {
  id: string
  kind: string
  idempotency_key: string
  reverses_entry_id: string | null
  created_at: Date
}

const ENTRY_COLUMNS = ['id', 'kind', 'idempotency_key', 'reverses_entry_id', 'created_at'] as const

/**
 * Inserts the entry unless the tenant already has one with its key; then
 * answers undefined. On PostgreSQL a concurrent insert of the same key waits
 * here for the other transaction: if it commits we see the conflict, if it
 * rolls back our insert goes ahead — so a key is never posted twice.
 */
export function insertEntry(
  trx: Transaction<DB>,
  entry: {
    id: string
    tenantId: string
    kind: string
    idempotencyKey: string
    reverses: string | null
  },
): Promise<EntryRow | undefined> {
  return trx
    .insertInto('journal_entries')
    .values({
      id: entry.id,
      tenant_id: entry.tenantId,
      kind: entry.kind,
      idempotency_key: entry.idempotencyKey,
      reverses_entry_id: entry.reverses,
    })
    .onConflict((oc) => oc.columns(['tenant_id', 'idempotency_key']).doNothing())
    .returning(ENTRY_COLUMNS)
    .executeTakeFirst()
}

export function findEntryByKey(db: Executor, tenantId: string, idempotencyKey: string) {
  return db
    .selectFrom('journal_entries')
    .select(ENTRY_COLUMNS)
    .where('tenant_id', '=', tenantId)
    .where('idempotency_key', '=', idempotencyKey)
    .executeTakeFirst()
}

export function findEntry(db: Executor, tenantId: string, entryId: string) {
  return db
    .selectFrom('journal_entries')
    .select(ENTRY_COLUMNS)
    .where('tenant_id', '=', tenantId)
    .where('id', '=', entryId)
    .executeTakeFirst()
}

export function findReversalOf(db: Executor, tenantId: string, entryId: string) {
  return db
    .selectFrom('journal_entries')
    .select('id')
    .where('tenant_id', '=', tenantId)
    .where('reverses_entry_id', '=', entryId)
    .executeTakeFirst()
}

export async function findPostings(db: Executor, entryId: string): Promise<Posting[]> {
  const rows = await db
    .selectFrom('postings')
    .select(['account_id', 'currency_uuid', 'amount_minor'])
    .where('entry_id', '=', entryId)
    .orderBy('seq')
    .execute()
  return rows.map((row) => ({
    account: row.account_id,
    currency: row.currency_uuid,
    amount: BigInt(row.amount_minor),
  }))
}

export async function insertPostings(
  trx: Transaction<DB>,
  tenantId: string,
  entryId: string,
  postings: readonly Posting[],
): Promise<void> {
  await trx
    .insertInto('postings')
    .values(
      postings.map((posting, seq) => ({
        entry_id: entryId,
        seq,
        tenant_id: tenantId,
        account_id: posting.account,
        currency_uuid: posting.currency,
        amount_minor: posting.amount.toString(),
      })),
    )
    .execute()
}

/** The tenant's accounts among `ids`, with whether each may go below zero. */
export function findAccounts(db: Executor, tenantId: string, ids: readonly string[]) {
  return db
    .selectFrom('ledger_accounts')
    .select(['id', 'may_go_negative'])
    .where('tenant_id', '=', tenantId)
    .where('id', 'in', ids)
    .execute()
}

/**
 * Adds a positive delta, or any delta to an account that may go negative:
 * creates the balance row on first use. Locks the row until commit.
 */
export async function addToBalance(
  trx: Transaction<DB>,
  tenantId: string,
  change: BalanceDelta,
  mayGoNegative: boolean,
): Promise<void> {
  await trx
    .insertInto('account_balances')
    .values({
      account_id: change.account,
      currency_uuid: change.currency,
      tenant_id: tenantId,
      balance_minor: change.delta.toString(),
      may_go_negative: mayGoNegative,
    })
    .onConflict((oc) =>
      oc.columns(['account_id', 'currency_uuid']).doUpdateSet({
        balance_minor: sql`account_balances.balance_minor + excluded.balance_minor`,
        updated_at: sql`now()`,
      }),
    )
    .execute()
}

/**
 * Subtracts from a non-negative account only if the balance covers it; the
 * WHERE is re-checked against the latest committed row after waiting for a
 * concurrent writer's lock (READ COMMITTED), so two spends cannot both pass.
 * Answers false, writing nothing, when the balance does not cover it.
 */
export async function spendFromBalance(
  trx: Transaction<DB>,
  change: BalanceDelta,
): Promise<boolean> {
  const delta = change.delta.toString()
  const updated = await trx
    .updateTable('account_balances')
    .set({
      balance_minor: sql`balance_minor + ${delta}::numeric`,
      updated_at: sql`now()`,
    })
    .where('account_id', '=', change.account)
    .where('currency_uuid', '=', change.currency)
    .where(sql<boolean>`balance_minor + ${delta}::numeric >= 0`)
    .returning('account_id')
    .executeTakeFirst()
  return updated !== undefined
}

export async function balanceOf(
  db: Executor,
  account: string,
  currency: string,
  options: { lock?: boolean } = {},
): Promise<bigint> {
  const row = await db
    .selectFrom('account_balances')
    .select('balance_minor')
    .where('account_id', '=', account)
    .where('currency_uuid', '=', currency)
    .$if(options.lock === true, (query) => query.forUpdate())
    .executeTakeFirst()
  return BigInt(row?.balance_minor ?? '0')
}

export async function insertAccounts(
  trx: Transaction<DB>,
  rows: { id: string; tenantId: string; kind: LedgerAccountKind; walletId: string | null }[],
): Promise<void> {
  await trx
    .insertInto('ledger_accounts')
    .values(
      rows.map((row) => ({
        id: row.id,
        tenant_id: row.tenantId,
        kind: row.kind,
        wallet_id: row.walletId,
        may_go_negative: row.kind === 'external' || row.kind === 'treasury',
      })),
    )
    .execute()
}

export async function insertSystemAccountIfMissing(
  db: Executor,
  row: { id: string; tenantId: string; kind: LedgerAccountKind },
): Promise<void> {
  await db
    .insertInto('ledger_accounts')
    .values({
      id: row.id,
      tenant_id: row.tenantId,
      kind: row.kind,
      wallet_id: null,
      may_go_negative: row.kind === 'external' || row.kind === 'treasury',
    })
    // The partial unique index ledger_accounts_system_kind: one per tenant and kind.
    .onConflict((oc) =>
      oc.columns(['tenant_id', 'kind']).where('wallet_id', 'is', null).doNothing(),
    )
    .execute()
}

export function findSystemAccount(db: Executor, tenantId: string, kind: LedgerAccountKind) {
  return db
    .selectFrom('ledger_accounts')
    .select('id')
    .where('tenant_id', '=', tenantId)
    .where('kind', '=', kind)
    .where('wallet_id', 'is', null)
    .executeTakeFirst()
}

/**
 * The kinds that make up a wallet's own balances. A wallet's sub-accounts
 * (kind sub_account: fiat accounts, the cards' money) carry its wallet_id too
 * but are not part of them.
 */
const WALLET_KINDS = ['user_wallet', 'pending', 'held'] as const satisfies LedgerAccountKind[]

export function findWalletAccounts(db: Executor, tenantId: string, walletId: string) {
  return db
    .selectFrom('ledger_accounts')
    .select(['id', 'kind'])
    .where('tenant_id', '=', tenantId)
    .where('wallet_id', '=', walletId)
    .where('kind', 'in', WALLET_KINDS)
    .execute()
}

/** Every balance row of the wallets' own accounts, with the kind of account it sits in. */
export function findWalletBalances(db: Executor, tenantId: string, walletIds: readonly string[]) {
  return db
    .selectFrom('account_balances as b')
    .innerJoin('ledger_accounts as a', 'a.id', 'b.account_id')
    .select(['a.wallet_id', 'a.kind', 'b.currency_uuid', 'b.balance_minor'])
    .where('a.tenant_id', '=', tenantId)
    .where('a.wallet_id', 'in', walletIds)
    .where('a.kind', 'in', WALLET_KINDS)
    .execute()
}
