import { randomInt } from 'node:crypto'
import { type Kysely, sql, type Transaction } from 'kysely'
import type { DB, LedgerAccountKind } from '../../infra/db/schema.ts'
import { rowsWritten, type Write, withItems } from '../../infra/db/together.ts'
import { LedgerError } from './errors.ts'
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
 * The tenant's own accounts: the platform's side of nearly every entry. They may go
 * negative (row by row: their sums are what the platform holds or owes).
 */
const HOUSE_KINDS: readonly LedgerAccountKind[] = ['external', 'treasury', 'fees']

/** How many rows an account that may go negative spreads its balance over (migration 0039). */
export const HOUSE_SHARDS = 16
const houseShard = () => randomInt(HOUSE_SHARDS)

/**
 * Writes a whole entry in ONE statement: the entry row, its postings, and the
 * balance changes — or nothing, when the tenant already has an entry under
 * its key (answers undefined; the caller replays). On PostgreSQL a concurrent
 * insert of the same key waits here for the other transaction: if it commits
 * we see the conflict, if it rolls back ours goes ahead — so a key is never
 * posted twice.
 *
 * Balances: each delta is an upsert of its row, in the order given (the lock
 * order, rules.lockOrder), guarded so that an account which may not go
 * negative is only changed when its balance covers the delta (re-checked on
 * the latest row after waiting for a concurrent writer's lock); a missing
 * row is created only for a credit or an account that may go negative (the
 * CHECK backs this: an overdraft could not be written even by mistake).
 * An account that may go negative (the tenant's own) is changed in one of its
 * HOUSE_SHARDS rows, picked at random per entry (migration 0039): concurrent
 * entries seldom queue on the same row; its balance is the rows' sum.
 *
 * The statement refuses itself (migration 0042, `ledger_entry_refuse`): a
 * delta the balance did not cover, or a leg on an account the tenant does not
 * have, raises — and a raised statement writes nothing, so an entry is never
 * half-written, whatever the caller does next (`refusal` names the failure).
 * `alone`: the statement is its own transaction (no BEGIN: money-command.ts),
 * so a key posted before raises too, rather than commit the rows riding along.
 *
 * `with` rides along: the caller's rows that need nothing back (an order,
 * its events), written by the same statement as data-modifying WITH items
 * (infra/db/together.ts) — one round trip for the command's writes — and
 * before the entry's checks, so their own refusals (a unique key) come first,
 * as they did when the caller checked the entry after the statement. In a
 * transaction they are written whatever the entry does (a replay included):
 * the caller rolls back on failure as ever.
 */
export async function writeEntry(
  db: Executor,
  entry: {
    id: string
    tenantId: string
    kind: string
    idempotencyKey: string
    reverses: string | null
    postings: readonly Posting[]
    deltas: readonly BalanceDelta[]
    /** When it was booked; undefined: now() (booking-time.ts). */
    bookedAt?: Date
  },
  writes: readonly Write[] = [],
  alone = false,
): Promise<EntryRow | undefined> {
  const { postings, deltas } = entry
  const accounts = [...new Set(postings.map((p) => p.account))]
  const result = await sql<EntryRow | { [K in keyof EntryRow]: null }>`
    with ${withItems(writes, true)}accounts as (
      select id, may_go_negative from ledger_accounts
      where tenant_id = ${entry.tenantId}::uuid and id = any(${accounts}::uuid[])
    ), entry as (
      insert into journal_entries (id, tenant_id, kind, idempotency_key, reverses_entry_id,
        created_at)
      values (${entry.id}::uuid, ${entry.tenantId}::uuid, ${entry.kind}, ${entry.idempotencyKey},
        ${entry.reverses}::uuid, coalesce(${entry.bookedAt ?? null}::timestamptz, now()))
      on conflict (tenant_id, idempotency_key) do nothing
      returning id, kind, idempotency_key, reverses_entry_id, created_at
    ), legs as (
      insert into postings (entry_id, seq, tenant_id, account_id, currency_uuid, amount_minor)
      select entry.id, leg.n - 1, ${entry.tenantId}::uuid, leg.account, leg.currency, leg.amount
      from entry, unnest(
        ${postings.map((p) => p.account)}::uuid[],
        ${postings.map((p) => p.currency)}::uuid[],
        ${postings.map((p) => p.amount.toString())}::numeric[]
      ) with ordinality as leg (account, currency, amount, n)
      join accounts a on a.id = leg.account
    ), moved as (
      insert into account_balances as b
        (account_id, currency_uuid, shard, tenant_id, balance_minor, may_go_negative)
      -- A spend's row is only ever proposed when it exists (and rows are never
      -- deleted), so it always conflicts and is updated under the guard; its
      -- proposed flag only gets it past the CHECK that is tested first.
      select d.account, d.currency,
        case when a.may_go_negative then ${houseShard()}::smallint else 0 end,
        ${entry.tenantId}::uuid, d.delta, a.may_go_negative or d.delta < 0
      from entry, unnest(
        ${deltas.map((d) => d.account)}::uuid[],
        ${deltas.map((d) => d.currency)}::uuid[],
        ${deltas.map((d) => d.delta.toString())}::numeric[]
      ) with ordinality as d (account, currency, delta, n)
      join accounts a on a.id = d.account
      where d.delta > 0 or a.may_go_negative or exists (
        select 1 from account_balances x
        where x.account_id = d.account and x.currency_uuid = d.currency)
      order by d.n
      on conflict (account_id, currency_uuid, shard) do update
        set balance_minor = b.balance_minor + excluded.balance_minor, updated_at = now()
        where b.may_go_negative or b.balance_minor + excluded.balance_minor >= 0
      returning b.account_id || '|' || b.currency_uuid as moved
    ), checked as (
      -- The one row either way; raises when the entry is not whole (migration 0042). A CASE
      -- reads its branches in order: the rows riding along are written first, so that a
      -- unique key of theirs (a quote placed already) is what refuses the statement, and
      -- the reason of a refusal is looked for only once the cheap test failed.
      select case
        when ${rowsWritten(writes)} < 0 then null
        when case when exists (select from entry)
            then ${accounts}::uuid[] <@ coalesce((select array_agg(id) from accounts), '{}')
              -- As moved names them: a uuid as PostgreSQL writes it, in lower case.
              and ${deltas.map((d) => `${d.account}|${d.currency}`.toLowerCase())}::text[]
                <@ coalesce((select array_agg(moved) from moved), '{}')
            else not ${alone} end
          then true
        else ledger_entry_refuse(
          exists (select from entry), ${alone}, ${accounts}::uuid[],
          (select array_agg(id) from accounts),
          ${deltas.map((d) => d.account)}::uuid[],
          ${deltas.map((d) => d.currency)}::uuid[],
          ${deltas.map((d) => d.delta.toString())}::numeric[],
          (select array_agg(moved) from moved))
      end as ok
    )
    select entry.* from checked left join entry on true`.execute(db)
  const row = result.rows[0]
  return row?.id === null || row === undefined ? undefined : (row as EntryRow)
}

/** The key was posted before, and the entry's statement was its own transaction (`alone`). */
export class PostedBefore extends Error {
  constructor() {
    super('the entry key was posted before')
    this.name = 'PostedBefore'
  }
}

/**
 * The entry statement's refusal (migration 0042's SQLSTATEs) as the ledger's
 * failure; undefined for any other error.
 */
export function refusal(error: unknown): LedgerError | PostedBefore | undefined {
  const { code, detail } = (error ?? {}) as { code?: string; detail?: string }
  if (code === 'LD003') return new PostedBefore()
  if (code === 'LD002' && detail) {
    return new LedgerError({ kind: 'ACCOUNT_NOT_FOUND', account: detail })
  }
  if (code === 'LD001' && detail) {
    const gap = JSON.parse(detail) as Record<'account' | 'currency' | 'balance' | 'delta', string>
    return new LedgerError({
      kind: 'INSUFFICIENT_FUNDS',
      account: gap.account,
      currency: gap.currency,
      balance: BigInt(gap.balance),
      delta: BigInt(gap.delta),
    })
  }
  return undefined
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

/** The sum of an account's balance rows in a currency (one row unless it may go negative). */
export async function balanceOf(
  db: Executor,
  account: string,
  currency: string,
  options: { lock?: boolean } = {},
): Promise<bigint> {
  const rows = await db
    .selectFrom('account_balances')
    .select('balance_minor')
    .where('account_id', '=', account)
    .where('currency_uuid', '=', currency)
    .$if(options.lock === true, (query) => query.forUpdate())
    .execute()
  return rows.reduce((sum, row) => sum + BigInt(row.balance_minor), 0n)
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
        may_go_negative: HOUSE_KINDS.includes(row.kind),
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
      may_go_negative: HOUSE_KINDS.includes(row.kind),
    })
    // The partial unique index ledger_accounts_system_kind: one per tenant and kind.
    .onConflict((oc) =>
      oc.columns(['tenant_id', 'kind']).where('wallet_id', 'is', null).doNothing(),
    )
    .execute()
}

export function findSystemAccounts(
  db: Executor,
  tenantId: string,
  kinds: readonly LedgerAccountKind[],
) {
  return db
    .selectFrom('ledger_accounts')
    .select(['id', 'kind'])
    .where('tenant_id', '=', tenantId)
    .where('kind', 'in', kinds)
    .where('wallet_id', 'is', null)
    .execute()
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
