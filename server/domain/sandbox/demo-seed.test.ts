import { readFileSync } from 'node:fs'
import type { FastifyInstance } from 'fastify'
import { isValidBIC, isValidIBAN } from 'ibantools'
import { sql } from 'kysely'
import { afterAll, beforeAll, expect, it } from 'vitest'
import type { ActivityPage } from '../../../contract/activity.ts'
import type { TokenPair } from '../../../contract/auth.ts'
import type { CardTransactionList } from '../../../contract/card-transactions.ts'
import type { CardList } from '../../../contract/cards.ts'
import type { FiatAccountList } from '../../../contract/fiat-accounts.ts'
import { toMinor } from '../../../contract/money.ts'
import { DEMO_TENANT_ID } from '../../../contract/tenancy.ts'
import type { TransactionList, WalletList } from '../../../contract/wallets.ts'
import { startBanner } from '../../banner.ts'
import { DEFAULT_DEMO_PASSWORD, loadConfig } from '../../config.ts'
import { statementsOf } from '../../infra/db/statements.ts'
import {
  bearer,
  captureLogs,
  createTestApp,
  describeServer,
  headers,
  signIn,
} from '../../test-support.ts'
import { validateAddress } from '../addresses/validate.ts'
import { CARD_MONTHLY_FEE_JOB } from '../cards/service.ts'
import { DISPATCH_JOB } from '../events/outbox.ts'
import { DEFAULT_PROGRAMS, defaultProgramId } from '../fiat-accounts/rules.ts'
import { expectLedgerInvariants } from '../ledger/ledger-test-support.ts'
import { SEED_FILE } from '../tenants/service.ts'
import demoSeed, {
  DEMO_CARD_MESSAGES,
  DEMO_EMAIL,
  DEMO_PERSON,
  DEMO_SEED_VERSION,
  DEMO_TOP_UPS,
  seedDemo,
} from './demo-seed.ts'

const KEY = Buffer.alloc(32, 3).toString('base64url')
/** A config of the demo's defaults that touches no DATA_DIR (its keys are given). */
const configWith = (env: Record<string, string> = {}) =>
  loadConfig({
    DATA_DIR: '/nonexistent-unused',
    ADDRESS_SEED_KEY: KEY,
    JWT_SECRET: KEY,
    REFRESH_TOKEN_SECRET: KEY,
    ...env,
  })

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
        (select count(*) from card_programs where tenant_id = ${DEMO_TENANT_ID}) as programs,
        (select count(*) from cards) as cards,
        (select count(*) from card_transactions) as card_transactions,
        (select count(*) from activities) as activities
    `.execute(app.db)
    return rows[0]
  }

  it('the start banner prints the demo sign-in, which works, and shows two wallets with settled balances', async () => {
    const config = configWith()
    expect(startBanner(config, 8080)).toContain(
      `Demo sign-in  ${DEMO_EMAIL} / ${DEFAULT_DEMO_PASSWORD}`,
    )
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
      // 13, then the physical card's issue fee and seven card-network entries.
      entries: '21',
      // The virtual card's own account.
      fiat_accounts: '3',
      // And the balance account's hold account.
      sub_accounts: '4',
      counterparties: '2',
      destinations: '3',
      programs: '4',
      cards: '2',
      // The issue fee, eight network messages, two top-up deposits.
      card_transactions: '11',
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
    ).toEqual([
      'Virtual EUR prepaid prepaid EUR 200.00',
      // 350.00 less the physical card's issue fee (5.00), 42.90 and 64.00 spent, 24.00 refunded.
      'EUR balance account balance EUR 262.10',
      // The stand-alone virtual card's own account.
      'Virtual EUR prepaid prepaid EUR 0.00',
    ])
    expect(accounts.data.map((a) => a.program_id)).toEqual([
      defaultProgramId(DEMO_TENANT_ID, 'eur-prepaid'),
      defaultProgramId(DEMO_TENANT_ID, 'eur-balance'),
      defaultProgramId(DEMO_TENANT_ID, 'eur-prepaid'),
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

  it('the demo user has a stand-alone virtual card and a delivered, active physical one, with card transactions', async () => {
    const pair = (
      await signIn(app, { email: DEMO_EMAIL, password: DEFAULT_DEMO_PASSWORD })
    ).json<TokenPair>()
    const v1 = async <T>(url: string) => {
      const response = await app.inject({
        method: 'GET',
        url: `/api/v1${url}`,
        headers: headers({ authorization: pair.access_token }),
      })
      expect(response.statusCode, response.body).toBe(200)
      return response.json<T>()
    }
    const cards = await v1<CardList>('/issuing/cards')
    expect(
      cards.data.map((c) => [
        c.nick_name,
        c.form_factor,
        c.status,
        c.stand_alone,
        c.delivery?.status,
      ]),
    ).toEqual([
      ['Online shopping', 'VIRTUAL', 'ACTIVE', true, undefined],
      ['Everyday', 'PHYSICAL', 'ACTIVE', false, 'DELIVERED'],
    ])
    expect(cards.data[1]!.delivery?.address).toMatchObject({ city: 'Berlin', country: 'DE' })
    const [virtual, physical] = cards.data

    const of = async (query: string) =>
      (await v1<CardTransactionList>(`/issuing/transactions/?limit=100&${query}`)).data
        .map((t) => `${t.type} ${t.status} ${t.amount}${t.merchant ? ` ${t.merchant.name}` : ''}`)
        .reverse()
    expect(await of(`card_id=${physical!.id}`)).toEqual([
      'FEE SETTLED 5.00',
      'AUTHORIZATION SETTLED 42.90 Café Einstein',
      'CLEARING SETTLED 42.90 Café Einstein',
      'AUTHORIZATION REVERSED 18.00 City Parking',
      'REVERSAL SETTLED 18.00 City Parking',
      'AUTHORIZATION SETTLED 64.00 Dussmann Bookshop',
      'CLEARING SETTLED 64.00 Dussmann Bookshop',
      'REFUND SETTLED 24.00 Dussmann Bookshop',
    ])
    expect(await of(`card_id=${virtual!.id}`)).toEqual([
      'AUTHORIZATION DECLINED 12.99 Streaming Plus',
    ])
    // The top-up of the balance account is the account's, not a card's.
    const account = await of(`fiat_account_id=${physical!.fiat_account.id}`)
    expect(account[0]).toBe('DEPOSIT SETTLED 350.00')
    expect(account).toHaveLength(9)
    expect(DEMO_CARD_MESSAGES).toHaveLength(8)
    await expectLedgerInvariants(app)
  })

  it('the demo user’s activity reads as what happened: one item each, merchants named, every record claimed', async () => {
    const pair = (
      await signIn(app, { email: DEMO_EMAIL, password: DEFAULT_DEMO_PASSWORD })
    ).json<TokenPair>()
    const response = await app.inject({
      method: 'GET',
      url: '/api/v2/activity?limit=100',
      headers: headers(bearer(pair.access_token)),
    })
    expect(response.statusCode, response.body).toBe(200)
    const feed = response.json<ActivityPage>()
    expect(feed.next_cursor).toBeNull()
    const lines = feed.data
      .map((item) =>
        [item.type, item.status, item.total.amount, item.total.currency, item.merchant?.name]
          .filter(Boolean)
          .join(' '),
      )
      .sort()
    expect(lines).toEqual(
      [
        'card_purchase complete 40.00 EUR Dussmann Bookshop',
        'card_purchase complete 42.90 EUR Café Einstein',
        'card_purchase declined 0.00 EUR Streaming Plus',
        'card_purchase reversed 0.00 EUR City Parking',
        // DEMO_TOP_UPS: each top-up with its fee.
        'card_top_up complete 202.00 EUR',
        'card_top_up complete 350.00 EUR',
        'deposit complete 0.01250000 BTC',
        'deposit complete 0.850000000000000000 ETH',
        'deposit complete 1250.000000 USDT',
        'deposit complete 2500.00 EUR',
        'deposit complete 320.500000 USDC',
        'deposit complete 500.000000 USDT',
        'fee complete 5.00 EUR',
      ].sort(),
    )
    const unclaimed = await app.db
      .selectFrom('wallet_transactions')
      .select('id')
      .where('activity_id', 'is', null)
      .execute()
    expect(unclaimed).toEqual([])
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
    const config = configWith()
    const deps = { db: app.db, jobs: app.jobs, bank: app.providers.bank, config, log: app.log }
    await Promise.all([seedDemo(deps), seedDemo(deps)])
    await seedDemo(deps)
    await app.jobs.runDue({ now: new Date(Date.now() + 3_600_000), limit: 100 })
    expect(await census()).toEqual(before)
    // Only the physical card's monthly fee waits, for its first anniversary.
    const pending = await app.db
      .selectFrom('jobs')
      .select(['kind', 'run_at'])
      .where('done_at', 'is', null)
      // The seed's events wait for their dispatcher, which these tests leave off (EVENTS_DISPATCH).
      .where('kind', '<>', DISPATCH_JOB)
      .execute()
    expect(pending.map((job) => job.kind)).toEqual([CARD_MONTHLY_FEE_JOB])
    expect(pending[0]!.run_at.getTime()).toBeGreaterThan(Date.now() + 27 * 86_400_000)
    await expectLedgerInvariants(app)
    // The app's default tenant and the seeded one are the same id, named once in contract/tenancy.ts.
    const seeded = JSON.parse(readFileSync(SEED_FILE, 'utf8')) as { tenants: { id: string }[] }
    expect(seeded.tenants.map((tenant) => tenant.id)).toContain(DEMO_TENANT_ID)
  })

  it('the demo person is verified with a name, a date of birth and an address; the card goes to them', async () => {
    const pair = (
      await signIn(app, { email: DEMO_EMAIL, password: DEFAULT_DEMO_PASSWORD })
    ).json<TokenPair>()
    const get = async <T>(url: string) =>
      (
        await app.inject({ method: 'GET', url, headers: headers(bearer(pair.access_token)) })
      ).json<T>()
    const user = await get<{ kyc_status: string }>('/api/v2/user')
    expect(user.kyc_status).toBe('APPROVED')
    const details = await get<Record<string, unknown>>('/api/v2/user/user-data')
    expect(details).toMatchObject({
      first_name: DEMO_PERSON.first_name,
      last_name: DEMO_PERSON.last_name,
      date_of_birth: DEMO_PERSON.date_of_birth,
      address: expect.objectContaining(DEMO_PERSON.address),
    })
    const card = await app.db
      .selectFrom('cards')
      .select('delivery_address')
      .where('form_factor', '=', 'PHYSICAL')
      .executeTakeFirstOrThrow()
    expect(card.delivery_address?.recipient_name).toBe(
      `${DEMO_PERSON.first_name} ${DEMO_PERSON.last_name}`,
    )
  })

  it('the demo’s history happened over weeks, and a restart leaves its times as they are', async () => {
    const times = async () => {
      const { rows } = await sql<{ at: Date }>`
        select t.created_at as at from wallet_transactions t
          join wallets w on w.id = t.wallet_id join users u on u.id = w.user_id
          where u.email = ${DEMO_EMAIL}
        union all
        select c.created_at from card_transactions c join users u on u.id = c.user_id
          where u.email = ${DEMO_EMAIL}
        order by 1`.execute(app.db)
      return rows.map((row) => new Date(row.at).getTime())
    }
    const DAY = 86_400_000
    const seen = await times()
    const days = new Set(seen.map((at) => Math.floor((Date.now() - at) / DAY)))
    expect(days.size).toBeGreaterThanOrEqual(10)
    expect(Date.now() - seen[0]!).toBeGreaterThan(28 * DAY)
    expect(Date.now() - seen.at(-1)!).toBeLessThan(DAY)
    const joined = await app.db
      .selectFrom('users')
      .select('created_at')
      .where('email', '=', DEMO_EMAIL)
      .executeTakeFirstOrThrow()
    expect(joined.created_at.getTime()).toBeLessThan(seen[0]!)

    const config = loadConfig({
      DATA_DIR: '/nonexistent-unused',
      ADDRESS_SEED_KEY: KEY,
      JWT_SECRET: KEY,
      REFRESH_TOKEN_SECRET: KEY,
    })
    await seedDemo({ db: app.db, jobs: app.jobs, bank: app.providers.bank, config, log: app.log })
    expect(await times()).toEqual(seen)
  })

  it('a start on a seeded database reads the mark and seeds nothing; a new seed version seeds again', async () => {
    const config = configWith()
    const mark = await app.db.selectFrom('demo_seeds').selectAll().executeTakeFirstOrThrow()
    expect(mark).toMatchObject({ tenant_id: DEMO_TENANT_ID, version: DEMO_SEED_VERSION })
    const restart = await statementsOf(() => demoSeed(app, { config }))
    expect(restart.statements).toHaveLength(1)
    // An older mark: the start seeds (converging: nothing new) and marks the current version.
    await app.db
      .updateTable('demo_seeds')
      .set({ version: DEMO_SEED_VERSION - 1 })
      .execute()
    const before = await census()
    const reseed = await statementsOf(() => demoSeed(app, { config }))
    expect(reseed.statements.length).toBeGreaterThan(10)
    expect(await census()).toEqual(before)
    expect(
      (await app.db.selectFrom('demo_seeds').select('version').executeTakeFirstOrThrow()).version,
    ).toBe(DEMO_SEED_VERSION)
  })

  it('a DEMO_PASSWORD the password policy refuses stops the start with a clear error', async () => {
    const config = configWith({ DEMO_PASSWORD: 'demo1234' })
    await expect(
      seedDemo({ db: app.db, jobs: app.jobs, bank: app.providers.bank, config, log: app.log }),
    ).rejects.toThrow(/DEMO_PASSWORD/)
  })
})
