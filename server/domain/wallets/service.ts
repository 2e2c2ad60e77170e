import type { Kysely } from 'kysely'
import { v7 as uuidv7 } from 'uuid'
import { fromMinor } from '../../../contract/money.ts'
import type { Balance, Wallet, WalletList, WalletType } from '../../../contract/wallets.ts'
import type { DB } from '../../infra/db/schema.ts'
import { findCurrenciesByUuid } from '../catalog/repository.ts'
import { openWalletAccounts, walletBalances } from '../ledger/service.ts'
import type { Owner } from '../owner.ts'
import { pageOf } from '../page.ts'
import { WalletError, walletNotFound } from './errors.ts'
import * as repo from './repository.ts'

type WalletRow = Awaited<ReturnType<typeof repo.findWallet>> & {}

/**
 * Wallets of the signed-in user, with their balances read from the ledger:
 * available is the wallet's user_wallet account, pending its pending and held
 * accounts together. A wallet lists only the currencies it has ever had a
 * posting in (catalogue order); the app adds the rest of the catalogue at zero
 * if it wants to show them.
 */
export class WalletService {
  constructor(private readonly db: Kysely<DB>) {}

  /**
   * A new, empty wallet of any type; a user may have several of one type.
   * @throws WalletError WALLET_TYPE_NOT_OFFERED when the tenant does not offer `type`
   */
  async createWallet(owner: Owner, type: WalletType, now = new Date()): Promise<Wallet> {
    const row = await this.db.transaction().execute(async (trx) => {
      const offered = await repo.offeredWalletTypes(trx, owner.tenantId)
      if (!offered.includes(type))
        throw new WalletError({ kind: 'WALLET_TYPE_NOT_OFFERED', offered })
      const wallet = await repo.insertWallet(trx, owner, uuidv7(), type, now)
      await openWalletAccounts(trx, owner.tenantId, wallet.id)
      return wallet
    })
    return toWallet(row, [])
  }

  async listWallets(owner: Owner, page: { limit: number; offset: number }): Promise<WalletList> {
    const [rows, total] = await Promise.all([
      repo.findWallets(this.db, owner, page),
      repo.countWallets(this.db, owner),
    ])
    const balances = await this.#balances(
      owner,
      rows.map((row) => row.id),
    )
    return pageOf(
      rows.map((row) => toWallet(row, balances.get(row.id) ?? [])),
      total,
      page,
    )
  }

  /** @throws WalletError WALLET_NOT_FOUND also for another user's (or tenant's) wallet */
  async getWallet(owner: Owner, walletId: string): Promise<Wallet> {
    const row = await repo.findWallet(this.db, owner, walletId)
    if (!row) throw walletNotFound()
    const balances = await this.#balances(owner, [row.id])
    return toWallet(row, balances.get(row.id) ?? [])
  }

  async #balances(owner: Owner, walletIds: string[]): Promise<Map<string, Balance[]>> {
    const raw = await walletBalances(this.db, owner.tenantId, walletIds)
    const uuids = [...new Set([...raw.values()].flatMap((list) => list.map((b) => b.currency)))]
    if (uuids.length === 0) return new Map()
    const currencies = new Map(
      (await findCurrenciesByUuid(this.db, uuids)).map((row) => [row.uuid, row]),
    )
    const result = new Map<string, Balance[]>()
    for (const [walletId, list] of raw) {
      const shown = list.flatMap((balance) => {
        const currency = currencies.get(balance.currency)
        if (!currency) return []
        return [
          {
            order: currency.sort_order,
            balance: {
              currency_uuid: currency.uuid,
              currency: currency.code,
              chain: currency.chain,
              decimals: currency.decimals,
              available: fromMinor(balance.available, currency.decimals),
              pending: fromMinor(balance.pending, currency.decimals),
            },
          },
        ]
      })
      result.set(
        walletId,
        shown.sort((a, b) => a.order - b.order).map((entry) => entry.balance),
      )
    }
    return result
  }
}

const toWallet = (row: WalletRow, balances: Balance[]): Wallet => ({
  uuid: row.id,
  type: row.type,
  created_at: row.created_at.toISOString(),
  balances,
})
