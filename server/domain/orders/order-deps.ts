import type { Kysely, Transaction } from 'kysely'
import type { DB } from '../../infra/db/schema.ts'
import { readOnce } from '../../infra/read-once.ts'
import type { BankingProvider } from '../../providers/banking/banking.ts'
import type { ChainPayouts } from '../../providers/chain/payouts.ts'
import { systemAccounts, type WalletAccounts, walletAccounts } from '../ledger/service.ts'
import type { QuoteTokens } from './quote-token.ts'
import type { CurrencyRow } from './repository.ts'
import * as repo from './repository.ts'

export interface OrderRails {
  bank: BankingProvider
  chain: ChainPayouts
}

export interface OrderSettings {
  /** Confirmations a sandbox withdrawal waits for at most (SANDBOX_MAX_CONFIRMATIONS). */
  maxConfirmations: number
  /** What firm quotes were signed with (QUOTE_KEYS): placing opens them. */
  quoteTokens: QuoteTokens
}

export type Trx = Transaction<DB>

export type Catalog = ReadonlyMap<string, CurrencyRow>

/** What every order use case works with; built once by OrderService. */
export interface OrderDeps {
  db: Kysely<DB>
  rails: OrderRails
  settings: OrderSettings
  /**
   * The catalogue's currencies. Call it outside any transaction: on PGlite a
   * transaction holds the only connection, so a read through `db` inside one
   * would wait for itself.
   */
  catalog: () => Promise<Catalog>
  /**
   * A wallet's ledger accounts (made with the wallet, never changed): read
   * once each, through `db` — the transaction, when called inside one.
   */
  walletAccounts: (
    db: Kysely<DB> | Trx,
    tenantId: string,
    walletId: string,
  ) => Promise<WalletAccounts | undefined>
  /**
   * The tenant's fees and treasury accounts (made once, never changed), what an
   * exchange settled in its placement pays through: read once per tenant, before
   * any transaction.
   */
  tenantAccounts: (tenantId: string) => Promise<TenantAccounts>
}

export type TenantAccounts = Record<'fees' | 'treasury', string>

/** Wallets whose accounts are remembered at most; the oldest is forgotten first. */
const REMEMBERED_WALLETS = 10_000

/**
 * A wallet's ledger accounts, remembered: they are opened in the transaction
 * that makes the wallet and never change, so a read of them can be kept for
 * as long as the server runs (a wallet not found is not remembered).
 */
export function walletAccountsOnce(): OrderDeps['walletAccounts'] {
  const known = new Map<string, WalletAccounts>()
  return async (db, tenantId, walletId) => {
    const key = `${tenantId}/${walletId.toLowerCase()}`
    const remembered = known.get(key)
    if (remembered) return remembered
    const accounts = await walletAccounts(db, tenantId, walletId)
    if (accounts) {
      if (known.size >= REMEMBERED_WALLETS) known.delete(known.keys().next().value!)
      known.set(key, accounts)
    }
    return accounts
  }
}

/** Tenants whose accounts are remembered at most; the oldest is forgotten first. */
const REMEMBERED_TENANTS = 1_000

/** The tenants' fees and treasury accounts, remembered (a failed read is not). */
export function tenantAccountsOnce(db: Kysely<DB>): OrderDeps['tenantAccounts'] {
  const known = new Map<string, Promise<TenantAccounts>>()
  return (tenantId) => {
    const remembered = known.get(tenantId)
    if (remembered) return remembered
    const read = systemAccounts(db, tenantId, ['fees', 'treasury'])
    if (known.size >= REMEMBERED_TENANTS) known.delete(known.keys().next().value!)
    known.set(tenantId, read)
    read.catch(() => known.delete(tenantId))
    return read
  }
}

/** The catalogue's currencies by uuid, read once (infra/read-once.ts). */
export const catalogOnce = (db: Kysely<DB>): (() => Promise<Catalog>) =>
  readOnce(async () => new Map((await repo.findCurrencies(db)).map((row) => [row.uuid, row])))
