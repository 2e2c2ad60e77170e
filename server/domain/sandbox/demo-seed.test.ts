import type { FastifyInstance } from 'fastify'
import { sql } from 'kysely'
import { afterAll, beforeAll, expect, it } from 'vitest'
import type { TokenPair } from '../../../contract/auth.ts'
import { DEMO_TENANT_ID } from '../../../contract/tenancy.ts'
import type { WalletList } from '../../../contract/wallets.ts'
import { DEFAULT_DEMO_PASSWORD, loadConfig } from '../../config.ts'
import {
  bearer,
  captureLogs,
  createTestApp,
  describeServer,
  headers,
  signIn,
} from '../../test-support.ts'
import { expectLedgerInvariants } from '../ledger/ledger-test-support.ts'
import { DEMO_EMAIL, seedDemo } from './demo-seed.ts'

const KEY = Buffer.alloc(32, 3).toString('base64url')

describeServer('the sandbox demo', () => {
  let app: FastifyInstance
  const logs = captureLogs()
  beforeAll(async () => {
    app = await createTestApp(
      { DEMO_SEED: 'true', ADDRESS_SEED_KEY: KEY },
      {
        logStream: logs.stream,
      },
    )
  })
  afterAll(() => app?.close())

  /** What the demo is made of, counted in the database. */
  async function census() {
    const { rows } = await sql<Record<string, string>>`
      select
        (select count(*) from users where email = ${DEMO_EMAIL}) as users,
        (select count(*) from wallets w join users u on u.id = w.user_id where u.email = ${DEMO_EMAIL}) as wallets,
        (select count(*) from wallet_addresses a join wallets w on w.id = a.wallet_id
           join users u on u.id = w.user_id where u.email = ${DEMO_EMAIL}) as addresses,
        (select count(*) from wallet_transactions t join wallets w on w.id = t.wallet_id
           join users u on u.id = w.user_id where u.email = ${DEMO_EMAIL} and t.status = 'complete') as complete,
        (select count(*) from wallet_transactions) as transactions,
        (select count(*) from journal_entries) as entries
    `.execute(app.db)
    return rows[0]
  }

  it('prints the demo sign-in, which works, and shows two wallets with settled balances', async () => {
    expect(logs.lines.join('')).toContain(`Demo sign-in: ${DEMO_EMAIL} / ${DEFAULT_DEMO_PASSWORD}`)
    const response = await signIn(app, { email: DEMO_EMAIL, password: DEFAULT_DEMO_PASSWORD })
    expect(response.statusCode, response.body).toBe(200)
    const pair = response.json<TokenPair>()
    const list = (
      await app.inject({
        method: 'GET',
        url: '/api/v2/wallets',
        headers: headers(bearer(pair.access_token)),
      })
    ).json<WalletList>()
    expect(list.data.map((wallet) => wallet.type)).toEqual(['personal', 'trading'])
    const [personal, trading] = list.data
    expect(
      personal!.balances.map((b) => `${b.currency}/${b.chain} ${b.available} ${b.pending}`),
    ).toEqual([
      'BTC/bitcoin 0.01250000 0.00000000',
      'ETH/ethereum 0.850000000000000000 0.000000000000000000',
      'USDT/tron 1250.000000 0.000000',
    ])
    expect(trading!.balances.map((b) => `${b.currency}/${b.chain} ${b.available}`)).toEqual([
      'USDT/tron 500.000000',
      'USDC/solana 320.500000',
    ])
    expect(await census()).toMatchObject({
      users: '1',
      wallets: '2',
      addresses: '5',
      complete: '5',
      transactions: '5',
      entries: '10',
    })
  })

  it('seeding again (a restart, or two at once) changes nothing, and the queued jobs find nothing to do', async () => {
    const before = await census()
    const config = loadConfig({
      DATA_DIR: '/nonexistent-unused',
      ADDRESS_SEED_KEY: KEY,
      JWT_SECRET: KEY,
      REFRESH_TOKEN_SECRET: KEY,
    })
    const deps = { db: app.db, jobs: app.jobs, config, log: app.log }
    await Promise.all([seedDemo(deps), seedDemo(deps)])
    await seedDemo(deps)
    await app.jobs.runDue({ now: new Date(Date.now() + 3_600_000), limit: 100 })
    expect(await census()).toEqual(before)
    const pending = await app.db
      .selectFrom('jobs')
      .select('id')
      .where('done_at', 'is', null)
      .execute()
    expect(pending).toEqual([])
    await expectLedgerInvariants(app)
    expect(DEMO_TENANT_ID).toBe('2b7c6f0e-9d4a-4f3e-8a1b-5c6d7e8f9a01')
  })

  it('a DEMO_PASSWORD the password policy refuses stops the start with a clear error', async () => {
    const config = loadConfig({
      DATA_DIR: '/nonexistent-unused',
      ADDRESS_SEED_KEY: KEY,
      JWT_SECRET: KEY,
      REFRESH_TOKEN_SECRET: KEY,
      DEMO_PASSWORD: 'demo1234',
    })
    await expect(seedDemo({ db: app.db, jobs: app.jobs, config, log: app.log })).rejects.toThrow(
      /DEMO_PASSWORD/,
    )
  })
})
