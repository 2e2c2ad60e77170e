import type { Kysely } from 'kysely'
import { v7 as uuidv7 } from 'uuid'
import type { ChainId } from '../../../contract/catalog.ts'
import type { WalletAddress, WalletAddressList } from '../../../contract/wallets.ts'
import type { DB } from '../../infra/db/schema.ts'
import type { Owner } from '../owner.ts'
import { wholePage } from '../page.ts'
import { walletNotFound } from '../wallets/errors.ts'
import { findWallet } from '../wallets/repository.ts'
import { deriveAddress } from './derive.ts'
import * as repo from './repository.ts'
import type { SeedStore } from './seed-store.ts'
import { validateAddress } from './validate.ts'

/**
 * Deposit addresses of the signed-in user's wallets: derived from the
 * tenant's seed at the next index of the chain's derivation family, so every
 * address is valid on its chain and none is ever handed to two wallets.
 */
export class AddressService {
  constructor(
    private readonly db: Kysely<DB>,
    private readonly seeds: SeedStore,
  ) {}

  /** @throws WALLET_NOT_FOUND (WalletError) also for another user's (or tenant's) wallet */
  async createAddress(
    owner: Owner,
    walletId: string,
    chain: ChainId,
    label: string | null,
    now = new Date(),
  ): Promise<WalletAddress> {
    const row = await this.db.transaction().execute(async (trx) => {
      const wallet = await findWallet(trx, owner, walletId)
      if (!wallet) throw walletNotFound()
      const seed = await this.seeds.seedOf(trx, owner.tenantId)
      const index = await repo.allocateIndex(trx, owner.tenantId, repo.DERIVATION_FAMILY[chain])
      const address = deriveAddress(seed, chain, index)
      // Derivation is tested against published vectors; this guards the wiring
      // (a wrong chain to codec) from ever handing out an address funds would be lost to.
      const check = validateAddress(chain, address)
      if (!check.ok) throw new Error(`derived an invalid ${chain} address: ${check.reason}`)
      return repo.insertAddress(trx, {
        id: uuidv7(),
        tenantId: owner.tenantId,
        walletId: wallet.id,
        chain,
        address,
        index,
        label,
        at: now,
      })
    })
    return toWalletAddress(row)
  }

  /** Every address of the wallet on the chain, oldest first, on one page. */
  async listAddresses(owner: Owner, walletId: string, chain: ChainId): Promise<WalletAddressList> {
    const wallet = await findWallet(this.db, owner, walletId)
    if (!wallet) throw walletNotFound()
    const data = (await repo.findAddresses(this.db, owner.tenantId, wallet.id, chain)).map(
      toWalletAddress,
    )
    return wholePage(data)
  }
}

const toWalletAddress = (row: repo.AddressRow): WalletAddress => ({
  uuid: row.id,
  wallet_uuid: row.wallet_id,
  chain: row.chain,
  address: row.address,
  label: row.label,
  created_at: row.created_at.toISOString(),
})
