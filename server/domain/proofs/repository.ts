import { type Kysely, sql, type Transaction } from 'kysely'
import type { Reserves, SnapshotBalance } from '../../../contract/proofs.ts'
import type { WalletType } from '../../../contract/wallets.ts'
import type { DB } from '../../infra/db/schema.ts'
import { type BalanceRow, LIABILITY_KINDS, type PersonAccountKind } from './rules.ts'

type Executor = Kysely<DB> | Transaction<DB>

// ---------------------------------------------------------------------------
// Keys

export interface KeyRow {
  id: string
  tenant_id: string
  public_key_pem: string
  private_key_sealed: string
  created_at: Date
}

const KEY_COLUMNS = [
  'id',
  'tenant_id',
  'public_key_pem',
  'private_key_sealed',
  'created_at',
] as const

export function findCurrentKey(db: Executor, tenantId: string): Promise<KeyRow | undefined> {
  return db
    .selectFrom('proof_keys')
    .select(KEY_COLUMNS)
    .where('tenant_id', '=', tenantId)
    .where('retired_at', 'is', null)
    .executeTakeFirst()
}

export function findKey(db: Executor, tenantId: string, keyId: string) {
  return db
    .selectFrom('proof_keys')
    .select(KEY_COLUMNS)
    .where('tenant_id', '=', tenantId)
    .where('id', '=', keyId)
    .executeTakeFirst()
}

/** Adds the tenant's current key unless it has one (the partial unique index decides a race). */
export async function insertKeyUnlessCurrent(
  db: Executor,
  row: Omit<KeyRow, 'created_at'>,
): Promise<void> {
  await db
    .insertInto('proof_keys')
    .values(row)
    .onConflict((oc) => oc.column('tenant_id').where('retired_at', 'is', null).doNothing())
    .execute()
}

export async function retireKeys(trx: Transaction<DB>, tenantId: string, at: Date) {
  await trx
    .updateTable('proof_keys')
    .set({ retired_at: at })
    .where('tenant_id', '=', tenantId)
    .where('retired_at', 'is', null)
    .execute()
}

/** The tenants that sign proofs: those with a current key. */
export async function tenantsWithKeys(db: Executor): Promise<string[]> {
  const rows = await db
    .selectFrom('proof_keys')
    .select('tenant_id')
    .where('retired_at', 'is', null)
    .orderBy('tenant_id')
    .execute()
  return rows.map((row) => row.tenant_id)
}

export async function tenantExists(db: Executor, tenantId: string): Promise<boolean> {
  const row = await db
    .selectFrom('tenants')
    .select('id')
    .where('id', '=', tenantId)
    .executeTakeFirst()
  return row !== undefined
}

// ---------------------------------------------------------------------------
// The snapshot: one REPEATABLE READ transaction

export interface CurrencyRow {
  uuid: string
  code: string
  decimals: number
}

export interface BalanceRead {
  users: string[]
  rows: BalanceRow[]
  currencies: CurrencyRow[]
  /** The ledger's own total of the liability accounts per code, summed by the database. */
  liabilities: Map<string, bigint>
}

/**
 * Everything a snapshot is made of, read in one REPEATABLE READ transaction
 * so every query sees the same moment of the ledger: the people of the
 * tenant, every non-zero balance of their wallets' accounts (pending ones
 * too, so the caller can refuse them), the catalogue, and the liabilities
 * totalled apart by the database — the check the tree's root must pass.
 * Short: the tree is built after it commits (on PGlite an open transaction
 * holds every other request).
 */
export function readBalances(db: Kysely<DB>, tenantId: string): Promise<BalanceRead> {
  return db
    .transaction()
    .setIsolationLevel('repeatable read')
    .execute(async (trx) => {
      const users = await trx
        .selectFrom('users')
        .select('id')
        .where('tenant_id', '=', tenantId)
        .orderBy('id')
        .execute()
      const balances = await sql<{
        user_id: string
        kind: PersonAccountKind
        wallet_id: string
        wallet_type: WalletType
        code: string
        amount: string
        fiat_account_id: string | null
        program_name: string | null
      }>`
        select w.user_id, a.kind, a.wallet_id, w.type as wallet_type, c.code,
          b.balance_minor::text as amount, coalesce(f.id, h.id) as fiat_account_id,
          p.name as program_name
        from account_balances b
        join ledger_accounts a on a.id = b.account_id
        join wallets w on w.id = a.wallet_id
        join currencies c on c.uuid = b.currency_uuid
        -- A sub-account is a fiat account's money or its card holds.
        left join fiat_accounts f on f.ledger_account_id = a.id
        left join fiat_accounts h on h.hold_ledger_account_id = a.id
        left join card_programs p on p.id = coalesce(f.program_id, h.program_id)
        where b.tenant_id = ${tenantId}::uuid and a.wallet_id is not null
          and b.balance_minor <> 0
      `.execute(trx)
      const currencies = await trx
        .selectFrom('currencies')
        .select(['uuid', 'code', 'decimals'])
        .execute()
      const totals = await sql<{ code: string; total: string }>`
        select c.code, sum(b.balance_minor)::text as total
        from account_balances b
        join ledger_accounts a on a.id = b.account_id
        join currencies c on c.uuid = b.currency_uuid
        where b.tenant_id = ${tenantId}::uuid and a.kind in (${sql.join([...LIABILITY_KINDS])})
        group by c.code
      `.execute(trx)
      return {
        users: users.map((row) => row.id),
        rows: balances.rows.map((row) => ({
          userId: row.user_id,
          kind: row.kind,
          walletId: row.wallet_id,
          walletType: row.wallet_type,
          fiatAccount:
            row.fiat_account_id === null
              ? null
              : { id: row.fiat_account_id, programName: row.program_name ?? '' },
          code: row.code,
          amount: BigInt(row.amount),
        })),
        currencies,
        liabilities: new Map(totals.rows.map((row) => [row.code, BigInt(row.total)])),
      }
    })
}

// ---------------------------------------------------------------------------
// Published snapshots

export interface SnapshotRow {
  id: string
  tenant_id: string
  taken_at: Date
  leaf_count: number
  root_hash: string
  root_sums: string
  key_id: string
  signature: string
  reserves: Reserves | null
}

const SNAPSHOT_COLUMNS = [
  'id',
  'tenant_id',
  'taken_at',
  'leaf_count',
  'root_hash',
  'root_sums',
  'key_id',
  'signature',
  'reserves',
] as const

export function findSnapshotOfDay(db: Executor, tenantId: string, day: string) {
  return db
    .selectFrom('proof_snapshots')
    .select(SNAPSHOT_COLUMNS)
    .where('tenant_id', '=', tenantId)
    .where('day', '=', day)
    .executeTakeFirst()
}

/** The snapshot unless the tenant has one for its day already: then nothing, and false. */
export async function insertSnapshot(
  trx: Transaction<DB>,
  row: SnapshotRow & { day: string },
): Promise<boolean> {
  const inserted = await trx
    .insertInto('proof_snapshots')
    .values({ ...row, reserves: row.reserves && JSON.stringify(row.reserves) })
    .onConflict((oc) => oc.columns(['tenant_id', 'day']).doNothing())
    .returning('id')
    .executeTakeFirst()
  return inserted !== undefined
}

/** Rows per INSERT: well under PostgreSQL's 65 535 parameters a statement. */
const BATCH = 2_000

export async function insertNodes(
  trx: Transaction<DB>,
  rows: { snapshot_id: string; level: number; position: number; hash: string; sums: string }[],
) {
  for (let start = 0; start < rows.length; start += BATCH) {
    await trx
      .insertInto('proof_nodes')
      .values(rows.slice(start, start + BATCH))
      .execute()
  }
}

export async function insertLeaves(
  trx: Transaction<DB>,
  rows: {
    snapshot_id: string
    tenant_id: string
    user_id: string
    position: number
    nonce: string
    balances: SnapshotBalance[]
  }[],
) {
  for (let start = 0; start < rows.length; start += BATCH) {
    await trx
      .insertInto('proof_leaves')
      .values(
        rows
          .slice(start, start + BATCH)
          .map((row) => ({ ...row, balances: JSON.stringify(row.balances) })),
      )
      .execute()
  }
}

/** Drops the trees (nodes and leaves, not the roots) of the tenant's snapshots before `day`. */
export async function pruneTrees(trx: Transaction<DB>, tenantId: string, day: string) {
  const old = trx
    .selectFrom('proof_snapshots')
    .select('id')
    .where('tenant_id', '=', tenantId)
    .where('day', '<', day)
  await trx.deleteFrom('proof_leaves').where('snapshot_id', 'in', old).execute()
  await trx.deleteFrom('proof_nodes').where('snapshot_id', 'in', old).execute()
}

export function latestSnapshot(db: Executor, tenantId: string) {
  return db
    .selectFrom('proof_snapshots')
    .select(SNAPSHOT_COLUMNS)
    .where('tenant_id', '=', tenantId)
    .orderBy('taken_at', 'desc')
    .limit(1)
    .executeTakeFirst()
}

/** Newest first, one row beyond `limit` (the caller tells the last page by it). */
export function snapshotsPage(
  db: Executor,
  tenantId: string,
  page: { limit: number; offset: number },
) {
  return db
    .selectFrom('proof_snapshots')
    .select(SNAPSHOT_COLUMNS)
    .where('tenant_id', '=', tenantId)
    .orderBy('taken_at', 'desc')
    .limit(page.limit + 1)
    .offset(page.offset)
    .execute()
}

export function findLeaf(db: Executor, snapshotId: string, userId: string) {
  return db
    .selectFrom('proof_leaves')
    .select(['position', 'nonce', 'balances'])
    .where('snapshot_id', '=', snapshotId)
    .where('user_id', '=', userId)
    .executeTakeFirst()
}

/** The nodes at these places of a snapshot's tree, in one indexed read. */
export async function findNodes(
  db: Executor,
  snapshotId: string,
  places: readonly { level: number; position: number }[],
) {
  const { rows } = await sql<{ level: number; position: number; hash: string; sums: string }>`
    select n.level, n.position, n.hash, n.sums
    from unnest(${places.map((place) => place.level)}::int[],
      ${places.map((place) => place.position)}::int[]) as wanted (level, position)
    join proof_nodes n on n.snapshot_id = ${snapshotId}::uuid
      and n.level = wanted.level and n.position = wanted.position
  `.execute(db)
  return rows
}
