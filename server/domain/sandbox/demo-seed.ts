import { hash as argon2Hash } from '@node-rs/argon2'
import type { FastifyBaseLogger, FastifyInstance } from 'fastify'
import type { Kysely } from 'kysely'
import type { ChainId } from '../../../contract/catalog.ts'
import { DEMO_TENANT_ID } from '../../../contract/tenancy.ts'
import type { WalletType } from '../../../contract/wallets.ts'
import type { Config } from '../../config.ts'
import type { DB } from '../../infra/db/schema.ts'
import type { JobContext, JobRunner } from '../../infra/jobs.ts'
import { SeedStore } from '../addresses/seed-store.ts'
import { AddressService } from '../addresses/service.ts'
import { judgePassword } from '../auth/password-policy.ts'
import { findUserByEmail, insertUserWithEmail } from '../auth/repository.ts'
import { DEPOSIT_JOB, DepositService } from '../deposits/service.ts'
import { findWallets } from '../wallets/repository.ts'
import { WalletService } from '../wallets/service.ts'

export const DEMO_EMAIL = 'demo@finplatform.local'

/** What the demo user holds: two wallets, addresses on four chains, five settled deposits. */
const DEMO_WALLETS: { type: WalletType; chains: ChainId[] }[] = [
  { type: 'personal', chains: ['bitcoin', 'ethereum', 'tron'] },
  { type: 'trading', chains: ['tron', 'solana'] },
]
const DEMO_DEPOSITS: { wallet: WalletType; chain: ChainId; currency: string; amount: string }[] = [
  { wallet: 'personal', chain: 'bitcoin', currency: 'BTC', amount: '0.01250000' },
  { wallet: 'personal', chain: 'ethereum', currency: 'ETH', amount: '0.85' },
  { wallet: 'personal', chain: 'tron', currency: 'USDT', amount: '1250.00' },
  { wallet: 'trading', chain: 'tron', currency: 'USDT', amount: '500' },
  { wallet: 'trading', chain: 'solana', currency: 'USDC', amount: '320.50' },
]

export interface DemoDeps {
  db: Kysely<DB>
  jobs: Pick<JobRunner, 'enqueue'>
  config: Pick<Config, 'demo' | 'sandboxChain' | 'secrets'>
  log: FastifyBaseLogger
}

/**
 * The demo user of the demo tenant, with wallets, addresses and completed
 * deposits. Every item is looked up before it is made and the deposits carry
 * fixed idempotency keys, so running it at every start (or twice at once, or
 * after a start that died half-way) converges on the same demo.
 */
export async function seedDemo(deps: DemoDeps): Promise<{ email: string; password: string }> {
  const { db, config } = deps
  const tenantId = DEMO_TENANT_ID
  const password = config.demo.password
  const verdict = judgePassword(password, { email: DEMO_EMAIL })
  if (!verdict.ok) throw new Error(`DEMO_PASSWORD ${verdict.reason}`)

  let user = await findUserByEmail(db, tenantId, DEMO_EMAIL)
  if (!user) {
    const passwordHash = await argon2Hash(password)
    await db
      .transaction()
      .execute((trx) => insertUserWithEmail(trx, { tenantId, email: DEMO_EMAIL, passwordHash }))
    user = await findUserByEmail(db, tenantId, DEMO_EMAIL)
    if (!user) throw new Error('the demo user was not created')
  }
  const owner = { tenantId, userId: user.id }

  const wallets = new WalletService(db)
  const addresses = new AddressService(db, new SeedStore(config.secrets.addressSeedKey))
  const deposits = new DepositService(db, deps.jobs, config.sandboxChain)
  const existing = await findWallets(db, owner, { limit: 100, offset: 0 })
  const walletIds = new Map<WalletType, string>()
  for (const plan of DEMO_WALLETS) {
    const id =
      existing.find((wallet) => wallet.type === plan.type)?.id ??
      (await wallets.createWallet(owner, plan.type)).uuid
    walletIds.set(plan.type, id)
    for (const chain of plan.chains) {
      const list = await addresses.listAddresses(owner, id, chain)
      if (list.total === 0) await addresses.createAddress(owner, id, chain, 'Demo')
    }
  }

  for (const [index, plan] of DEMO_DEPOSITS.entries()) {
    const deposit = await deposits.create({
      tenantId,
      walletId: walletIds.get(plan.wallet)!,
      chain: plan.chain,
      currency: plan.currency,
      amount: plan.amount,
      idempotencyKey: `demo-seed:${index}`,
    })
    // Settled here, not block by block: the demo starts with its history complete.
    // The queued job then finds nothing left to do.
    await settle(deposits, { db, log: deps.log, now: new Date() }, deposit.uuid)
  }
  return { email: DEMO_EMAIL, password }
}

async function settle(deposits: DepositService, context: JobContext, transactionId: string) {
  const job = {
    id: `settle:${transactionId}`,
    kind: DEPOSIT_JOB,
    tenantId: DEMO_TENANT_ID,
    payload: { transaction_id: transactionId },
    attempt: 1,
  }
  for (let step = 0; step < 1_000; step++) {
    if ((await deposits.step(job, context)) === undefined) return
  }
  throw new Error(`demo deposit ${transactionId} did not settle`)
}

/** Seeds the demo at start (sandbox only) and prints its sign-in. */
export default async function demoSeed(app: FastifyInstance, opts: { config: Config }) {
  const { email, password } = await seedDemo({
    db: app.db,
    jobs: app.jobs,
    config: opts.config,
    log: app.log,
  })
  app.log.info(`Demo sign-in: ${email} / ${password}`)
}
