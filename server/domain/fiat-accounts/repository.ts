import { type Kysely, type RawBuilder, sql, type Transaction } from 'kysely'
import type { SubAccountType } from '../../../contract/fiat-accounts.ts'
import type { DB } from '../../infra/db/schema.ts'
import type { Owner } from '../owner.ts'

type Executor = Kysely<DB> | Transaction<DB>

const programs = (db: Executor, tenantId: string) =>
  db
    .selectFrom('card_programs as p')
    .innerJoin('currencies as c', 'c.uuid', 'p.currency_uuid')
    .where('p.tenant_id', '=', tenantId)

/** The tenant's programs, active and archived, in the tenant's order. */
export function findPrograms(
  db: Executor,
  tenantId: string,
  page: { limit: number; offset: number },
) {
  return programs(db, tenantId)
    .select([
      'p.id',
      'p.name',
      'p.status',
      'p.currency_uuid',
      'c.code as currency',
      'c.decimals',
      'p.form_factors',
      'p.card_type',
      'p.sub_account_type',
      'p.fee_issue_minor',
      'p.fee_monthly_minor',
      'p.fee_top_up_percent',
    ])
    .orderBy('p.sort_order')
    .orderBy('p.created_at')
    .orderBy('p.id')
    .limit(page.limit)
    .offset(page.offset)
    .execute()
}
export type ProgramRow = Awaited<ReturnType<typeof findPrograms>>[number]

export async function countPrograms(db: Executor, tenantId: string): Promise<number> {
  const row = await programs(db, tenantId)
    .select((eb) => eb.fn.countAll<string>().as('count'))
    .executeTakeFirstOrThrow()
  return Number(row.count)
}

/** The tenant's program of this id; another tenant's is not found. */
export function findProgram(db: Executor, tenantId: string, id: string) {
  return db
    .selectFrom('card_programs as p')
    .innerJoin('currencies as c', 'c.uuid', 'p.currency_uuid')
    .select(['p.id', 'p.status', 'p.currency_uuid', 'c.code as currency', 'p.sub_account_type'])
    .where('p.tenant_id', '=', tenantId)
    .where('p.id', '=', id)
    .executeTakeFirst()
}

export async function insertFiatAccount(
  trx: Transaction<DB>,
  row: {
    id: string
    tenantId: string
    walletId: string
    programId: string
    currencyUuid: string
    subAccountType: SubAccountType
    ledgerAccountId: string
    iban: string | null
    at: Date
  },
): Promise<boolean> {
  const inserted = await trx
    .insertInto('fiat_accounts')
    .values({
      id: row.id,
      tenant_id: row.tenantId,
      wallet_id: row.walletId,
      program_id: row.programId,
      currency_uuid: row.currencyUuid,
      sub_account_type: row.subAccountType,
      ledger_account_id: row.ledgerAccountId,
      iban: row.iban,
      created_at: row.at,
      updated_at: row.at,
    })
    // Only the IBAN can be taken already (the id and sub-account are new).
    .onConflict((oc) => oc.column('iban').where('iban', 'is not', null).doNothing())
    .executeTakeFirst()
  return Number(inserted.numInsertedOrUpdatedRows ?? 0) > 0
}

/** Gives an account its IBAN unless it has one; false when another account holds that IBAN. */
export async function setIbanIfMissing(db: Executor, accountId: string, iban: string) {
  const taken = await db
    .selectFrom('fiat_accounts')
    .select('id')
    .where('iban', '=', iban)
    .executeTakeFirst()
  if (taken) return taken.id === accountId
  await db
    .updateTable('fiat_accounts')
    .set({ iban })
    .where('id', '=', accountId)
    .where('iban', 'is', null)
    .execute()
  return true
}

/**
 * The owner's fiat accounts with what a reader needs: the program's name, the
 * currency, and the balance of the account's ledger sub-account (no balance
 * row yet: nothing was ever posted, 0).
 */
const ownedAccounts = (db: Executor, owner: Owner) =>
  db
    .selectFrom('fiat_accounts as f')
    .innerJoin('wallets as w', (join) =>
      join.onRef('w.tenant_id', '=', 'f.tenant_id').onRef('w.id', '=', 'f.wallet_id'),
    )
    .where('f.tenant_id', '=', owner.tenantId)
    .where('w.user_id', '=', owner.userId)

const withDetails = (db: Executor, owner: Owner) =>
  ownedAccounts(db, owner)
    .innerJoin('card_programs as p', 'p.id', 'f.program_id')
    .innerJoin('currencies as c', 'c.uuid', 'f.currency_uuid')
    .leftJoin('account_balances as b', (join) =>
      join
        .onRef('b.account_id', '=', 'f.ledger_account_id')
        .onRef('b.currency_uuid', '=', 'f.currency_uuid'),
    )
    .leftJoin('user_profiles as up', 'up.user_id', 'w.user_id')
    .select([
      'f.id',
      'f.wallet_id',
      'f.program_id',
      'p.name as program_name',
      'f.sub_account_type',
      'f.status',
      'f.currency_uuid',
      'c.code as currency',
      'c.decimals',
      'f.ledger_account_id',
      'b.balance_minor',
      'f.iban',
      'up.first_name as holder_first_name',
      'up.last_name as holder_last_name',
      'f.created_at',
      'f.updated_at',
      // A stand-alone card's own account (it takes no other card).
      sql<boolean>`exists (select 1 from cards s where s.fiat_account_id = f.id and s.stand_alone)`.as(
        'stand_alone',
      ),
    ])

/** Keep the accounts with fewer than `lt` and/or more than `gt` cards that are not CLOSED. */
export interface CardCountFilter {
  lt?: number
  gt?: number
}

const cardCount = sql<number>`(select count(*) from cards k where k.fiat_account_id = f.id and k.status <> 'CLOSED')`

function withCardCount<Q extends { where: (expression: RawBuilder<boolean>) => Q }>(
  query: Q,
  filter: CardCountFilter,
): Q {
  let narrowed = query
  if (filter.lt !== undefined) narrowed = narrowed.where(sql<boolean>`${cardCount} < ${filter.lt}`)
  if (filter.gt !== undefined) narrowed = narrowed.where(sql<boolean>`${cardCount} > ${filter.gt}`)
  return narrowed
}

/** Oldest first, like wallets: a new account goes to the end, so pages already seen do not shift. */
export function findFiatAccounts(
  db: Executor,
  owner: Owner,
  walletId: string,
  page: { limit: number; offset: number },
  cards: CardCountFilter = {},
) {
  return withCardCount(withDetails(db, owner), cards)
    .where('f.wallet_id', '=', walletId)
    .orderBy('f.created_at')
    .orderBy('f.id')
    .limit(page.limit)
    .offset(page.offset)
    .execute()
}
export type FiatAccountRow = Awaited<ReturnType<typeof findFiatAccounts>>[number]

export async function countFiatAccounts(
  db: Executor,
  owner: Owner,
  walletId: string,
  cards: CardCountFilter = {},
): Promise<number> {
  const row = await withCardCount(ownedAccounts(db, owner), cards)
    .where('f.wallet_id', '=', walletId)
    .select((eb) => eb.fn.countAll<string>().as('count'))
    .executeTakeFirstOrThrow()
  return Number(row.count)
}

/**
 * One of the owner's fiat accounts, in `walletId` when given. Another user's
 * (or tenant's) account, or one in another wallet, is not found.
 */
export function findFiatAccount(
  db: Executor,
  owner: Owner,
  where: { id: string; walletId?: string },
): Promise<FiatAccountRow | undefined> {
  let query = withDetails(db, owner).where('f.id', '=', where.id)
  if (where.walletId !== undefined) query = query.where('f.wallet_id', '=', where.walletId)
  return query.executeTakeFirst()
}

/** The cards (not CLOSED) of these accounts, oldest first: what `show_cards` lists. */
export function findAccountCards(db: Executor, tenantId: string, accountIds: readonly string[]) {
  if (accountIds.length === 0) return Promise.resolve([])
  return db
    .selectFrom('cards')
    .select(['id', 'fiat_account_id', 'last4', 'nick_name', 'status', 'form_factor'])
    .where('tenant_id', '=', tenantId)
    .where('fiat_account_id', 'in', accountIds)
    .where('status', '<>', 'CLOSED')
    .orderBy('created_at')
    .orderBy('id')
    .execute()
}
