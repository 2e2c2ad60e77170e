import type { Kysely, Transaction } from 'kysely'
import type { WalletType } from '../../../contract/wallets.ts'
import type { DB } from '../../infra/db/schema.ts'
import type { Owner } from '../owner.ts'

type Executor = Kysely<DB> | Transaction<DB>

const WALLET_COLUMNS = ['id', 'type', 'created_at'] as const

export function insertWallet(
  trx: Transaction<DB>,
  owner: Owner,
  id: string,
  type: WalletType,
  at?: Date,
) {
  return trx
    .insertInto('wallets')
    .values({ id, tenant_id: owner.tenantId, user_id: owner.userId, type, created_at: at })
    .returning(WALLET_COLUMNS)
    .executeTakeFirstOrThrow()
}

/** Only the owner's: another user's wallet id finds nothing. */
export function findWallet(db: Executor, owner: Owner, id: string) {
  return db
    .selectFrom('wallets')
    .select(WALLET_COLUMNS)
    .where('tenant_id', '=', owner.tenantId)
    .where('user_id', '=', owner.userId)
    .where('id', '=', id)
    .executeTakeFirst()
}

/** Oldest first: a new wallet goes to the end, so pages already seen do not shift. */
export function findWallets(db: Executor, owner: Owner, page: { limit: number; offset: number }) {
  return db
    .selectFrom('wallets')
    .select(WALLET_COLUMNS)
    .where('tenant_id', '=', owner.tenantId)
    .where('user_id', '=', owner.userId)
    .orderBy('created_at')
    .orderBy('id')
    .limit(page.limit)
    .offset(page.offset)
    .execute()
}

export async function hasWalletOfType(
  db: Executor,
  owner: Owner,
  type: WalletType,
): Promise<boolean> {
  const row = await db
    .selectFrom('wallets')
    .select('id')
    .where('tenant_id', '=', owner.tenantId)
    .where('user_id', '=', owner.userId)
    .where('type', '=', type)
    .limit(1)
    .executeTakeFirst()
  return row !== undefined
}

export async function countWallets(db: Executor, owner: Owner): Promise<number> {
  const row = await db
    .selectFrom('wallets')
    .select((eb) => eb.fn.countAll<string>().as('count'))
    .where('tenant_id', '=', owner.tenantId)
    .where('user_id', '=', owner.userId)
    .executeTakeFirstOrThrow()
  return Number(row.count)
}

/** The wallet types the tenant offers (its configuration; every type when it names none). */
export async function offeredWalletTypes(db: Executor, tenantId: string): Promise<string[]> {
  const row = await db
    .selectFrom('tenants')
    .select('wallet_types')
    .where('id', '=', tenantId)
    .executeTakeFirst()
  return row?.wallet_types ?? []
}
