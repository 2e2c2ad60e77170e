import type { FastifyInstance } from 'fastify'
import { isValidBIC, isValidIBAN } from 'ibantools'
import { sql } from 'kysely'
import { afterAll, beforeAll, expect, it } from 'vitest'
import type { TokenPair } from '../../../contract/auth.ts'
import type { FiatAccountList } from '../../../contract/fiat-accounts.ts'
import { toMinor } from '../../../contract/money.ts'
import { DEMO_TENANT_ID } from '../../../contract/tenancy.ts'
import type { TransactionList, WalletList } from '../../../contract/wallets.ts'
import { DEFAULT_DEMO_PASSWORD, loadConfig } from '../../config.ts'
import {
  bearer,
  captureLogs,
  createTestApp,
  describeServer,
  headers,
  signIn,
} from '../../test-support.ts'
import { validateAddress } from '../addresses/validate.ts'
import { DEFAULT_PROGRAMS, defaultProgramId } from '../fiat-accounts/rules.ts'
import { expectLedgerInvariants } from '../ledger/ledger-test-support.ts'
import { DEMO_EMAIL, DEMO_TOP_UPS, seedDemo } from './demo-seed.ts'

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
        (select count(*) from journal_entries) as entries,
        (select count(*) from fiat_accounts) as fiat_accounts,
        (select count(*) from ledger_accounts where kind = 'sub_account') as sub_accounts,
        (select count(*) from counterparties) as counterparties,
        (select count(*) from counterparty_destinations) as destinations,
        (select count(*) from card_programs where tenant_id = ${DEMO_TENANT_ID}) as programs
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
      // 2500.00 in, 200.00 + 2.00 fee and 350.00 out to the fiat accounts.
      'EUR/null 1948.00 0.00',
    ])
    expect(trading!.balances.map((b) => `${b.currency}/${b.chain} ${b.available}`)).toEqual([
      'USDT/tron 500.000000',
      'USDC/solana 320.500000',
    ])
    expect(await census()).toMatchObject({
      users: '1',
      wallets: '2',
      addresses: '5',
      complete: '9',
      transactions: '9',
      entries: '13',
      fiat_accounts: '2',
      sub_accounts: '2',
      counterparties: '2',
      destinations: '3',
      programs: '4',
    })
  })

  it('the personal wallet has a EUR history and one funded fiat account per active EUR program', async () => {
    const pair = (
      await signIn(app, { email: DEMO_EMAIL, password: DEFAULT_DEMO_PASSWORD })
    ).json<TokenPair>()
    const call = (url: string) =>
      app.inject({
        method: 'GET',
        url: `/api/v2${url}`,
        headers: headers(bearer(pair.access_token)),
      })
    const personal = (await call('/wallets')).json<WalletList>().data[0]!

    const accounts = (await call(`/fiat-accounts/${personal.uuid}`)).json<FiatAccountList>()
    expect(
      accounts.data.map(
        (a) => `${a.program_name} ${a.sub_account_type} ${a.currency} ${a.balance}`,
      ),
    ).toEqual(['Virtual EUR prepaid prepaid EUR 200.00', 'EUR balance account balance EUR 350.00'])
    expect(accounts.data.map((a) => a.program_id)).toEqual([
      defaultProgramId(DEMO_TENANT_ID, 'eur-prepaid'),
      defaultProgramId(DEMO_TENANT_ID, 'eur-balance'),
    ])

    const history = (
      await call(`/wallets/${personal.uuid}/transactions?currency=EUR`)
    ).json<TransactionList>()
    expect(
      history.data
        .map((t) => `${t.type} ${t.method} ${t.record_type} ${t.status} ${t.amount}`)
        .sort(),
    ).toEqual([
      'deposit bank_transfer DEPOSIT complete 2500.00',
      'withdrawal p2p CARD_PROVIDER_DEPOSIT complete 200.00',
      'withdrawal p2p CARD_PROVIDER_DEPOSIT complete 350.00',
      'withdrawal p2p FEE complete 2.00',
    ])
    // The prepaid top-up's amount and fee are one operation.
    const records = await app.db
      .selectFrom('wallet_transactions')
      .select(['record_type', 'operation_id'])
      .where('wallet_id', '=', personal.uuid)
      .where('method', '=', 'p2p')
      .execute()
    const fee = records.find((r) => r.record_type === 'FEE')
    expect(fee?.operation_id).toEqual(expect.any(String))
    expect(records.filter((r) => r.operation_id === fee?.operation_id)).toHaveLength(2)

    // Each fee is what the program charges: its top-up percentage of the amount.
    for (const plan of DEMO_TOP_UPS) {
      const program = DEFAULT_PROGRAMS.find((p) => p.key === plan.program)!
      const expected = (toMinor(plan.amount, 2) * toMinor(program.feeTopUpPercent, 3)) / 100_000n
      expect(toMinor(plan.fee, 2), plan.program).toBe(expected)
    }
  })

  it('the demo user pays two counterparties: a person by SEPA, a business by SWIFT and on chain', async () => {
    const personal = await app.db
      .selectFrom('wallets as w')
      .innerJoin('users as u', 'u.id', 'w.user_id')
      .select('w.id')
      .where('u.email', '=', DEMO_EMAIL)
      .where('w.type', '=', 'personal')
      .executeTakeFirstOrThrow()
    const rows = await app.db
      .selectFrom('counterparties as c')
      .innerJoin('counterparty_destinations as d', 'd.counterparty_id', 'c.id')
      .select([
        'c.wallet_id',
        'c.type',
        'c.first_name',
        'c.last_name',
        'c.legal_name',
        'c.country',
        'd.type as rail',
        'd.iban',
        'd.bic',
        'd.bank_country',
        'd.chain',
        'd.address',
      ])
      .orderBy('c.type', 'desc')
      .orderBy('d.type', 'desc')
      .execute()
    expect(rows.every((row) => row.wallet_id === personal.id)).toBe(true)
    expect(rows.map(({ wallet_id, ...row }) => row)).toEqual([
      {
        type: 'INDIVIDUAL',
        first_name: 'Anna',
        last_name: 'Schmidt',
        legal_name: null,
        country: 'DE',
        rail: 'SEPA',
        iban: 'DE89370400440532013000',
        bic: 'COBADEFFXXX',
        bank_country: null,
        chain: null,
        address: null,
      },
      expect.objectContaining({
        type: 'BUSINESS',
        legal_name: 'Northwind Traders Ltd',
        country: 'GB',
        rail: 'SWIFT',
        iban: 'GB33BUKB20201555555555',
        bic: 'BUKBGB22',
        bank_country: 'GB',
      }),
      expect.objectContaining({
        type: 'BUSINESS',
        rail: 'CRYPTO_EXTERNAL',
        chain: 'ethereum',
        address: '0xde0B295669a9FD93d5F28D9Ec85E40f4cb697BAe',
      }),
    ])
    // Valid for their rails, as the counterparty book would have checked them.
    expect(isValidIBAN(rows[0]!.iban!)).toBe(true)
    expect(isValidIBAN(rows[1]!.iban!)).toBe(true)
    expect(rows.slice(0, 2).every((row) => isValidBIC(row.bic!))).toBe(true)
    expect(validateAddress('ethereum', rows[2]!.address!)).toMatchObject({ ok: true })
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
