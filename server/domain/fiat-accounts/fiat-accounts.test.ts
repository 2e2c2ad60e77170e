import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, expect, it } from 'vitest'
import type { TokenPair } from '../../../contract/auth.ts'
import type { FiatAccount, FiatAccountList } from '../../../contract/fiat-accounts.ts'
import { DEMO_TENANT_ID } from '../../../contract/tenancy.ts'
import type { Wallet } from '../../../contract/wallets.ts'
import {
  bearer,
  createFiatAccount,
  createTenant,
  createTestApp,
  createWallet,
  describeServer,
  expectProblem,
  headers,
  DEMO_PROGRAM as PROGRAM,
  signUp,
} from '../../test-support.ts'
import { defaultProgramId } from '../issuing/default-programs.ts'
import { LedgerError } from '../ledger/errors.ts'
import {
  credit,
  EUR,
  expectLedgerInvariants,
  postAlone,
  USDT_TRON,
} from '../ledger/ledger-test-support.ts'
import { transfer } from '../ledger/rules.ts'
import { type WalletAccounts, walletAccounts } from '../ledger/service.ts'
import { accountLast4 } from './rules.ts'

const tenantId = DEMO_TENANT_ID
const USD = '23a118db-510b-4942-ae1f-19d4bbe14324'
const NO_SUCH = '0190f5a4-0000-7000-8000-000000000000'

describeServer('fiat accounts', () => {
  let app: FastifyInstance
  beforeAll(async () => {
    app = await createTestApp()
  })
  afterAll(() => app?.close())

  const call = (pair: TokenPair, method: 'GET' | 'POST', url: string, payload?: object) =>
    app.inject({
      method,
      url: `/api/v2${url}`,
      headers: headers(bearer(pair.access_token)),
      ...(payload && { payload }),
    })

  async function owner() {
    const pair = await signUp(app)
    const wallet = await createWallet(app, pair.access_token)
    return { pair, wallet }
  }

  /** The fiat account's ledger sub-account, which the API never shows. */
  const ledgerAccountOf = async (account: FiatAccount) =>
    (
      await app.db
        .selectFrom('fiat_accounts')
        .select('ledger_account_id')
        .where('id', '=', account.id)
        .executeTakeFirstOrThrow()
    ).ledger_account_id

  it('opens an account under an active program, in its currency and sub-account type, at zero', async () => {
    const { pair, wallet } = await owner()
    const response = await call(pair, 'POST', `/fiat-accounts/${wallet.uuid}`, {
      program_id: PROGRAM.prepaid,
    })
    expect(response.statusCode, response.body).toBe(201)
    const account = response.json<FiatAccount>()
    expect(account).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      wallet_uuid: wallet.uuid,
      program_id: PROGRAM.prepaid,
      program_name: 'Virtual EUR prepaid',
      sub_account_type: 'prepaid',
      status: 'ACTIVE',
      currency_uuid: EUR,
      currency: 'EUR',
      balance: '0.00',
      account_last4: accountLast4(account.id),
      bank_details: {
        iban: expect.stringMatching(
          new RegExp(`^DE[0-9]{2}100100108[0-9]{5}${accountLast4(account.id)}$`),
        ),
        bic: 'SBXBDEB1XXX',
        bank_name: 'Sandbox Bank AG',
        account_holder: null,
      },
      // Opened on its own, not by a stand-alone card: it takes cards.
      stand_alone: false,
      created_at: expect.any(String),
      updated_at: expect.any(String),
    })
    const usd = await createFiatAccount(app, pair.access_token, wallet.uuid, PROGRAM.usd)
    expect(usd).toMatchObject({ currency_uuid: USD, currency: 'USD', sub_account_type: 'balance' })

    // Its money sits in a sub-account of the wallet, opened with it.
    const ledger = await app.db
      .selectFrom('ledger_accounts')
      .select(['kind', 'wallet_id', 'may_go_negative'])
      .where('id', '=', await ledgerAccountOf(account))
      .executeTakeFirstOrThrow()
    expect(ledger).toEqual({ kind: 'sub_account', wallet_id: wallet.uuid, may_go_negative: false })
  })

  it('lists the wallet’s accounts oldest first, in pages; show_cards adds their cards', async () => {
    const { pair, wallet } = await owner()
    const other = await createWallet(app, pair.access_token)
    const created = []
    for (const program of [PROGRAM.prepaid, PROGRAM.balance, PROGRAM.usd, PROGRAM.prepaid]) {
      created.push(await createFiatAccount(app, pair.access_token, wallet.uuid, program))
    }
    await createFiatAccount(app, pair.access_token, other.uuid)

    const first = (
      await call(pair, 'GET', `/fiat-accounts/${wallet.uuid}?limit=3`)
    ).json<FiatAccountList>()
    expect(first).toMatchObject({ total: 4, limit: 3, offset: 0, is_last_page: false })
    expect(first.data).toEqual(created.slice(0, 3))
    const rest = await call(pair, 'GET', `/fiat-accounts/${wallet.uuid}?offset=3&show_cards=true`)
    expect(rest.statusCode, rest.body).toBe(200)
    expect(rest.json<FiatAccountList>()).toEqual({
      data: created.slice(3).map((account) => ({ ...account, cards: [] })),
      total: 4,
      limit: 10,
      offset: 3,
      is_last_page: true,
    })
    expect(
      (await call(pair, 'GET', `/fiat-accounts/${other.uuid}`)).json<FiatAccountList>().total,
    ).toBe(1)
    expectProblem(
      await call(pair, 'GET', `/fiat-accounts/${wallet.uuid}?show_cards=maybe`),
      422,
      'VALIDATION_FAILED',
    )
  })

  it('a wallet without accounts lists an empty last page', async () => {
    const { pair, wallet } = await owner()
    expect((await call(pair, 'GET', `/fiat-accounts/${wallet.uuid}`)).json()).toEqual({
      data: [],
      total: 0,
      limit: 10,
      offset: 0,
      is_last_page: true,
    })
  })

  it('one account answers by wallet and id; another user’s, or through another wallet, is 404', async () => {
    const { pair, wallet } = await owner()
    const second = await createWallet(app, pair.access_token)
    const account = await createFiatAccount(app, pair.access_token, wallet.uuid)
    const stranger = await owner()

    const response = await call(pair, 'GET', `/fiat-accounts/${wallet.uuid}/${account.id}`)
    expect(response.statusCode, response.body).toBe(200)
    expect(response.json<FiatAccount>()).toEqual(account)

    expectProblem(
      await call(stranger.pair, 'GET', `/fiat-accounts/${wallet.uuid}/${account.id}`),
      404,
      'FIAT_ACCOUNT_NOT_FOUND',
    )
    expectProblem(
      await call(stranger.pair, 'GET', `/fiat-accounts/${stranger.wallet.uuid}/${account.id}`),
      404,
      'FIAT_ACCOUNT_NOT_FOUND',
    )
    expectProblem(
      await call(pair, 'GET', `/fiat-accounts/${second.uuid}/${account.id}`),
      404,
      'FIAT_ACCOUNT_NOT_FOUND',
    )
    expectProblem(
      await call(pair, 'GET', `/fiat-accounts/${wallet.uuid}/${NO_SUCH}`),
      404,
      'FIAT_ACCOUNT_NOT_FOUND',
    )
    const malformed = expectProblem(
      await call(pair, 'GET', `/fiat-accounts/${wallet.uuid}/not-a-uuid`),
      422,
      'VALIDATION_FAILED',
    )
    expect(malformed.errors?.[0]?.field).toBe('/params/fiat_account_id')
  })

  it('another user’s wallet answers 404 WALLET_NOT_FOUND, to list and to open in, and nothing opens', async () => {
    const { wallet } = await owner()
    const stranger = await owner()
    expectProblem(
      await call(stranger.pair, 'GET', `/fiat-accounts/${wallet.uuid}`),
      404,
      'WALLET_NOT_FOUND',
    )
    expectProblem(
      await call(stranger.pair, 'POST', `/fiat-accounts/${wallet.uuid}`, {
        program_id: PROGRAM.prepaid,
      }),
      404,
      'WALLET_NOT_FOUND',
    )
    expectProblem(
      await call(stranger.pair, 'POST', `/fiat-accounts/${NO_SUCH}`, {
        program_id: PROGRAM.prepaid,
      }),
      404,
      'WALLET_NOT_FOUND',
    )
    const opened = await app.db
      .selectFrom('ledger_accounts')
      .select('id')
      .where('wallet_id', '=', wallet.uuid)
      .where('kind', '=', 'sub_account')
      .execute()
    expect(opened).toEqual([])
  })

  it('an archived program, another tenant’s or an unknown one answers 422 naming program_id', async () => {
    const { pair, wallet } = await owner()
    const otherTenant = await createTenant(app)
    for (const [programId, code] of [
      [PROGRAM.archived, 'PROGRAM_ARCHIVED'],
      [defaultProgramId(otherTenant, 'eur-prepaid'), 'PROGRAM_NOT_FOUND'],
      [NO_SUCH, 'PROGRAM_NOT_FOUND'],
    ] as const) {
      const problem = expectProblem(
        await call(pair, 'POST', `/fiat-accounts/${wallet.uuid}`, { program_id: programId }),
        422,
        code,
      )
      expect(problem.errors).toEqual([{ field: '/body/program_id', message: expect.any(String) }])
    }
    for (const payload of [{}, { program_id: 'eur' }, { program_id: PROGRAM.prepaid, x: 1 }]) {
      expectProblem(
        await call(pair, 'POST', `/fiat-accounts/${wallet.uuid}`, payload),
        422,
        'VALIDATION_FAILED',
      )
    }
    expect((await call(pair, 'GET', `/fiat-accounts/${wallet.uuid}`)).json().total).toBe(0)
  })

  it('the balance is the sub-account’s, and it is not part of the wallet’s balances', async () => {
    const { pair, wallet } = await owner()
    const prepaid = await createFiatAccount(app, pair.access_token, wallet.uuid)
    const sub = await ledgerAccountOf(prepaid)
    const accounts = (await walletAccounts(app.db, tenantId, wallet.uuid)) as WalletAccounts
    expect(Object.keys(accounts).sort()).toEqual(['held', 'pending', 'user_wallet'])

    // Money only in the sub-account: the wallet shows nothing at all.
    await credit(app.db, tenantId, sub, EUR, 1_000n)
    const walletAfterCredit = (await call(pair, 'GET', `/wallets/${wallet.uuid}`)).json<Wallet>()
    expect(walletAfterCredit.balances).toEqual([])

    // A top-up's effect: 40.00 of the wallet's 100.00 moves to the account.
    await credit(app.db, tenantId, accounts.user_wallet, EUR, 10_000n)
    await credit(app.db, tenantId, accounts.pending, USDT_TRON, 5_000_000n)
    await postAlone(app.db, {
      tenantId,
      kind: 'card_top_up',
      idempotencyKey: `top-up:${prepaid.id}`,
      postings: transfer(accounts.user_wallet, sub, EUR, 4_000n),
    })
    const detail = await call(pair, 'GET', `/fiat-accounts/${wallet.uuid}/${prepaid.id}`)
    expect(detail.json<FiatAccount>().balance).toBe('50.00')
    const list = (await call(pair, 'GET', `/fiat-accounts/${wallet.uuid}`)).json<FiatAccountList>()
    expect(list.data.map((account) => account.balance)).toEqual(['50.00'])

    const balances = (await call(pair, 'GET', `/wallets/${wallet.uuid}`)).json<Wallet>().balances
    expect(balances.map((b) => `${b.currency} ${b.available} ${b.pending}`)).toEqual([
      'USDT 0.000000 5.000000',
      'EUR 60.00 0.00',
    ])
    await expectLedgerInvariants(app)
  })

  it('a sub-account never goes below zero', async () => {
    const { pair, wallet } = await owner()
    const account = await createFiatAccount(app, pair.access_token, wallet.uuid)
    const accounts = (await walletAccounts(app.db, tenantId, wallet.uuid)) as WalletAccounts
    const sub = await ledgerAccountOf(account)
    await credit(app.db, tenantId, sub, EUR, 500n)
    const overdraw = postAlone(app.db, {
      tenantId,
      kind: 'card_spend',
      idempotencyKey: `spend:${account.id}`,
      postings: transfer(sub, accounts.user_wallet, EUR, 501n),
    })
    await expect(overdraw).rejects.toThrow(LedgerError)
    await expect(overdraw).rejects.toMatchObject({ failure: { kind: 'INSUFFICIENT_FUNDS' } })
    const detail = await call(pair, 'GET', `/fiat-accounts/${wallet.uuid}/${account.id}`)
    expect(detail.json<FiatAccount>().balance).toBe('5.00')
  })

  it('without a session fiat accounts answer 401', async () => {
    const { wallet } = await owner()
    const response = await app.inject({
      method: 'GET',
      url: `/api/v2/fiat-accounts/${wallet.uuid}`,
      headers: headers(),
    })
    expectProblem(response, 401, 'UNAUTHORIZED')
  })
})
