import type { FastifyInstance } from 'fastify'
import { type Kysely, sql } from 'kysely'
import { v7 as uuidv7 } from 'uuid'
import { expect } from 'vitest'
import type { DB } from '../../infra/db/schema.ts'
import { WalletService } from '../wallets/service.ts'
import {
  balanceOf,
  type EntryInput,
  post,
  systemAccount,
  type WalletAccounts,
  walletAccounts,
} from './service.ts'

/** Fixed catalogue uuids (migration 0004). */
export const EUR = 'fc3b2351-726b-4cca-abda-4cfdcf917b0b'
export const USDT_TRON = 'b3115d89-344b-4d51-abfa-76863eddec04'
export const ETH = '442c4a1d-5c86-4c6c-bec6-7c8f3cfd7433'

/** A user straight in the database, with one new wallet and its ledger accounts. */
export async function newWallet(db: Kysely<DB>, tenantId: string, userId?: string) {
  const owner = { tenantId, userId: userId ?? uuidv7() }
  if (!userId)
    await db.insertInto('users').values({ id: owner.userId, tenant_id: tenantId }).execute()
  const wallet = await new WalletService(db).createWallet(owner, 'personal')
  const accounts = (await walletAccounts(db, tenantId, wallet.uuid)) as WalletAccounts
  return { owner, wallet, accounts }
}

/** post() in a transaction of its own, the way a use case runs it. */
export const postAlone = (db: Kysely<DB>, entry: EntryInput) =>
  db.transaction().execute((trx) => post(trx, entry))

/** Money arriving from outside the platform into `account`. */
export async function credit(
  db: Kysely<DB>,
  tenantId: string,
  account: string,
  currency: string,
  amount: bigint,
) {
  const external = await systemAccount(db, tenantId, 'external')
  return postAlone(db, {
    tenantId,
    kind: 'test_credit',
    idempotencyKey: `credit:${uuidv7()}`,
    postings: [
      { account: external, currency, amount: -amount },
      { account, currency, amount },
    ],
  })
}

export const balance = (db: Kysely<DB>, account: string, currency: string) =>
  balanceOf(db, account, currency)

/**
 * The ledger's invariants, checked in SQL over the whole database: every entry
 * balances per currency, every balance equals the sum of its postings, no
 * wallet account is below zero, and per tenant and currency all balances sum
 * to zero (money is neither made nor lost).
 */
export async function expectLedgerInvariants(app: FastifyInstance | { db: Kysely<DB> }) {
  const { db } = app
  const unbalanced = await sql`
    select entry_id, currency_uuid, sum(amount_minor) as sum
    from postings group by entry_id, currency_uuid
    having sum(amount_minor) <> 0`.execute(db)
  expect(unbalanced.rows, 'entries that do not balance').toEqual([])

  const drifted = await sql`
    select coalesce(b.account_id, p.account_id) as account_id,
           coalesce(b.currency_uuid, p.currency_uuid) as currency_uuid,
           b.balance_minor, p.total
    from (
      select account_id, currency_uuid, sum(balance_minor) as balance_minor
      from account_balances group by account_id, currency_uuid
    ) b
    full outer join (
      select account_id, currency_uuid, sum(amount_minor) as total
      from postings group by account_id, currency_uuid
    ) p on p.account_id = b.account_id and p.currency_uuid = b.currency_uuid
    where coalesce(b.balance_minor, 0) <> coalesce(p.total, 0)`.execute(db)
  expect(drifted.rows, 'balances that differ from the sum of their postings').toEqual([])

  const negative = await sql`
    select b.account_id, b.balance_minor from account_balances b
    join ledger_accounts a on a.id = b.account_id
    where a.kind in ('user_wallet', 'pending', 'held', 'sub_account')
      and b.balance_minor < 0`.execute(db)
  expect(negative.rows, 'wallet accounts or sub-accounts below zero').toEqual([])

  const created = await sql`
    select tenant_id, currency_uuid, sum(balance_minor) as sum from account_balances
    group by tenant_id, currency_uuid having sum(balance_minor) <> 0`.execute(db)
  expect(created.rows, 'money made or lost').toEqual([])
}
