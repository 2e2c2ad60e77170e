import type { Transaction } from 'kysely'
import { v7 as uuidv7 } from 'uuid'
import type { DB } from '../../infra/db/schema.ts'
import { openWalletAccounts } from '../ledger/service.ts'
import type { Owner } from '../owner.ts'
import * as repo from './repository.ts'

/**
 * The Personal wallet every new account starts with, so Deposit, Exchange and
 * Cards work from the first minute instead of asking for a wallet first.
 * Call it in the transaction that creates the user: nobody else can see the
 * user yet, and a sign-up that fails leaves no wallet behind. Idempotent: a
 * user who already has a Personal wallet gets no second one. A tenant that
 * does not offer personal wallets opens none.
 */
export async function openStarterWallet(
  trx: Transaction<DB>,
  owner: Owner,
): Promise<string | undefined> {
  const offered = await repo.offeredWalletTypes(trx, owner.tenantId)
  if (!offered.includes('personal')) return undefined
  if (await repo.hasWalletOfType(trx, owner, 'personal')) return undefined
  const wallet = await repo.insertWallet(trx, owner, uuidv7(), 'personal')
  await openWalletAccounts(trx, owner.tenantId, wallet.id)
  return wallet.id
}
