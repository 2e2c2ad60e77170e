import type { Kysely } from 'kysely'
import { DEMO_TENANT_ID } from '../contract/tenancy.ts'
import { transfer } from '../server/domain/ledger/rules.ts'
import { post, systemAccount, walletAccounts } from '../server/domain/ledger/service.ts'
import type { DB } from '../server/infra/db/schema.ts'
import { USDT_TRON } from './lib.ts'

/** 100 million USDT into a wallet, straight through the ledger: no order of a run meets INSUFFICIENT_FUNDS. */
export async function fundBenchWallet(db: Kysely<DB>, walletUuid: string): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const accounts = await walletAccounts(trx, DEMO_TENANT_ID, walletUuid)
    if (!accounts) throw new Error('the bench wallet has no ledger accounts')
    const external = await systemAccount(trx, DEMO_TENANT_ID, 'external')
    await post(trx, {
      tenantId: DEMO_TENANT_ID,
      kind: 'bench_funding',
      idempotencyKey: `bench:${walletUuid}:funding`,
      postings: transfer(external, accounts.user_wallet, USDT_TRON, 100_000_000_000_000n),
    })
  })
}
