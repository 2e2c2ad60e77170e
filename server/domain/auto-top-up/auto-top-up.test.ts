import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, expect, it } from 'vitest'
import type { AutoTopUp } from '../../../contract/auto-top-up.ts'
import type { CardTransaction } from '../../../contract/card-transactions.ts'
import type { ApiKeyWithSecret } from '../../../contract/developer.ts'
import { toMinor } from '../../../contract/money.ts'
import { DEMO_TENANT_ID } from '../../../contract/tenancy.ts'
import { enqueue } from '../../infra/jobs.ts'
import {
  createFiatAccount,
  createTestApp,
  createWallet,
  describeServer,
  expectProblem,
  headers,
  signUp,
} from '../../test-support.ts'
import {
  cardCalls,
  EUR_BALANCE,
  ledgerAccountOf,
  ok,
  PREPAID,
  testCardKeys,
} from '../cards/card-test-support.ts'
import { credit, EUR, expectLedgerInvariants } from '../ledger/ledger-test-support.ts'
import { accountBalance, balances, CUR, fund } from '../orders/order-fixtures.ts'
import { autoTopUpReads } from './auto-top-up-test-support.ts'
import { AUTO_TOP_UP_JOB } from './run-auto-top-up.ts'

const SHOP = { name: 'Corner Shop', mcc: '5411', city: 'Lisbon', country: 'PT' }

/**
 * Auto top-up of a balance card account (issue 30 §4): set up with the second
 * look; a clearing that leaves the account below `below` tops it up to
 * `top_up_to` once, within the day's cap; a refusal is one event, no retry.
 */
describeServer('a balance card account’s auto top-up', () => {
  let app: FastifyInstance
  const keys = testCardKeys()

  beforeAll(async () => {
    app = await createTestApp({ ...keys.env, RATES_SANDBOX_LATENCY_MS: '0' })
  })
  afterAll(() => app?.close())

  const { call, onAccount } = cardCalls(() => app)

  /** A verified person (step-up given) with a balance account holding `funds` EUR and a card on it. */
  async function holder(funds = '100.00', walletEur = '1000') {
    const pair = await signUp(app, { stepUp: true })
    const token = pair.access_token
    const wallet = await createWallet(app, token)
    const account = await createFiatAccount(app, token, wallet.uuid, EUR_BALANCE)
    const ledger = await ledgerAccountOf(app, account.id)
    // The card's issue fee (5.00), then the account holds `funds` from here.
    await credit(app.db, DEMO_TENANT_ID, ledger, EUR, 500n)
    const card = await onAccount(token, account.id)
    const left = toMinor(await accountBalance(app.db, ledger, EUR), 2)
    await credit(app.db, DEMO_TENANT_ID, ledger, EUR, toMinor(funds, 2) - left)
    if (walletEur !== '0') await fund(app.db, wallet.uuid, CUR.EUR, walletEur)
    return { token, wallet, account, card, ledger }
  }
  type Holder = Awaited<ReturnType<typeof holder>>

  const settings = (who: Holder, extra: Record<string, unknown> = {}) => ({
    enabled: true,
    below: '50.00',
    top_up_to: '200.00',
    from_wallet_uuid: who.wallet.uuid,
    from_currency: CUR.EUR,
    daily_cap: '500.00',
    ...extra,
  })

  const put = (who: { token: string }, accountId: string, body: unknown) =>
    call(who.token, 'PUT', `/fiat_accounts/${accountId}/auto-top-up`, body)

  const network = (body: Record<string, unknown>) =>
    app.inject({
      method: 'POST',
      url: '/api/sandbox/card-transactions',
      headers: { 'content-type': 'application/json' },
      payload: { currency: 'EUR', ...body },
    })

  /** A payment of `amount` authorised and cleared; answers the clearing message to replay. */
  async function pay(who: Holder, amount: string, messageId: string) {
    const auth = ok<CardTransaction>(
      await network({ card_id: who.card.id, type: 'AUTHORIZATION', amount, merchant: SHOP }),
      201,
    )
    expect(auth.status).toBe('APPROVED')
    const clearing = {
      card_id: who.card.id,
      type: 'CLEARING',
      amount,
      authorization_id: auth.id,
      network_message_id: messageId,
    }
    ok(await network(clearing), 201)
    return clearing
  }

  const { drain, ordersOf, eventsOf, runsOf, autoTopUpJobs } = autoTopUpReads(() => app)

  it('reads the default, keeps valid settings, and names every field it refuses', async () => {
    const who = await holder()
    const path = `/fiat_accounts/${who.account.id}/auto-top-up`
    expect(ok<AutoTopUp>(await call(who.token, 'GET', path))).toEqual({
      fiat_account_id: who.account.id,
      enabled: false,
      below: null,
      top_up_to: null,
      from_wallet_uuid: null,
      from_currency: null,
      daily_cap: null,
      currency: 'EUR',
      topped_up_today: '0.00',
      last_run: null,
    })
    const kept = ok<AutoTopUp>(await put(who, who.account.id, settings(who)))
    expect(kept).toMatchObject({ ...settings(who), below: '50.00', last_run: null })
    expect(ok<AutoTopUp>(await call(who.token, 'GET', path))).toEqual(kept)

    const refused = expectProblem(
      await put(who, who.account.id, settings(who, { below: '0', top_up_to: '0.001' })),
      422,
      'INVALID_AUTO_TOP_UP',
    )
    expect(refused.errors?.map((fault) => fault.field)).toEqual(['/body/below', '/body/top_up_to'])
    const currency = expectProblem(
      await put(who, who.account.id, settings(who, { from_currency: CUR.BTC })),
      422,
      'INVALID_AUTO_TOP_UP',
    )
    expect(currency.detail).toContain('must be EUR (the account’s currency), USDT or USDC')
    const missing = expectProblem(
      await put(who, who.account.id, { enabled: true, below: '10' }),
      422,
      'INVALID_AUTO_TOP_UP',
    )
    expect(missing.errors?.map((fault) => fault.field)).toEqual([
      '/body/top_up_to',
      '/body/daily_cap',
      '/body/from_wallet_uuid',
      '/body/from_currency',
    ])
    // Another person's wallet is no wallet of theirs; a stablecoin is.
    const other = await holder()
    const foreign = expectProblem(
      await put(who, who.account.id, settings(who, { from_wallet_uuid: other.wallet.uuid })),
      422,
      'INVALID_AUTO_TOP_UP',
    )
    expect(foreign.errors).toEqual([
      { field: '/body/from_wallet_uuid', message: 'No such wallet of yours.' },
    ])
    ok(await put(who, who.account.id, settings(who, { from_currency: CUR.USDT_TRON })))
    // Nothing refused was kept.
    expect(ok<AutoTopUp>(await call(who.token, 'GET', path)).from_currency).toBe(CUR.USDT_TRON)
  })

  it('only the person’s own balance account, and turning it on needs the second look', async () => {
    const who = await holder()
    const other = await holder()
    // Another person's account answers like none.
    expectProblem(await put(other, who.account.id, settings(other)), 404, 'FIAT_ACCOUNT_NOT_FOUND')
    expectProblem(
      await call(other.token, 'GET', `/fiat_accounts/${who.account.id}/auto-top-up`),
      404,
      'FIAT_ACCOUNT_NOT_FOUND',
    )
    const prepaid = await createFiatAccount(app, who.token, who.wallet.uuid, PREPAID)
    expectProblem(await put(who, prepaid.id, settings(who)), 409, 'FIAT_ACCOUNT_TYPE_MISMATCH')

    // Signed in a while ago: no fresh proof of presence.
    const pair = await signUp(app)
    const wallet = await createWallet(app, pair.access_token)
    const account = await createFiatAccount(app, pair.access_token, wallet.uuid, EUR_BALANCE)
    const late = { token: pair.access_token }
    const body = {
      enabled: true,
      below: '10',
      top_up_to: '20',
      from_wallet_uuid: wallet.uuid,
      from_currency: CUR.EUR,
      daily_cap: '50',
    }
    expectProblem(await put(late, account.id, body), 403, 'STEP_UP_REQUIRED')
    // Off never waits.
    expect(ok<AutoTopUp>(await put(late, account.id, { ...body, enabled: false })).enabled).toBe(
      false,
    )
    // A key, even PRODUCTION's bound to an address, can do neither: it is the person's act alone.
    const created = ok<ApiKeyWithSecret>(
      await app.inject({
        method: 'POST',
        url: '/api/v1/developer/access/create',
        headers: headers({ authorization: who.token }),
        payload: { name: 'ops', role: 'PRODUCTION', allowed_ips: ['127.0.0.1'] },
      }),
      201,
    )
    const byKey = (method: 'GET' | 'PUT', payload?: object) =>
      app.inject({
        method,
        url: `/api/v1/fiat_accounts/${who.account.id}/auto-top-up`,
        headers: headers({ 'x-api-key': created.secret }),
        ...(payload && { payload }),
      })
    expectProblem(await byKey('GET'), 403, 'SESSION_REQUIRED')
    expectProblem(await byKey('PUT', { enabled: false }), 403, 'SESSION_REQUIRED')
  })

  it('a clearing below the threshold tops up to top_up_to once, however the clearing or the job repeats', async () => {
    const who = await holder('100.00')
    ok(await put(who, who.account.id, settings(who)))
    // 100 − 30 = 70: not below 50, nothing happens.
    await pay(who, '30.00', 'above')
    await drain()
    expect(await runsOf(who.account.id)).toEqual([])
    // 70 − 55 = 15: below 50; the top-up brings 185.
    const clearing = await pay(who, '55.00', 'below')
    await drain()
    expect(await accountBalance(app.db, who.ledger, EUR)).toBe('200.00')
    const orders = await ordersOf(who.wallet.uuid)
    expect(orders).toEqual([
      expect.objectContaining({ order_type: 'TRANSFER_CARD_SUBACCOUNT', status: 'COMPLETE' }),
    ])
    expect(await runsOf(who.account.id)).toEqual([
      { status: 'PLACED', amount_minor: '18500', failure: null, order_id: orders[0]!.id },
    ])
    expect(await eventsOf(who.account.id)).toEqual([
      {
        kind: 'card.auto_top_up.placed',
        payload: expect.objectContaining({
          amount: '185.00',
          currency: 'EUR',
          order_id: orders[0]!.id,
        }),
      },
    ])
    const wallet = await balances(app.db, who.wallet.uuid, CUR.EUR)
    expect(Number(wallet.available)).toBeLessThanOrEqual(1000 - 185)

    // The same clearing message again: replayed, nothing new.
    const again = await network(clearing)
    expect(again.statusCode).toBe(200)
    // A second job for the same clearing, as a repeated enqueue would make.
    const [run] = await app.db
      .selectFrom('card_auto_top_up_runs')
      .select('clearing_id')
      .where('fiat_account_id', '=', who.account.id)
      .execute()
    await app.db.transaction().execute((trx) =>
      enqueue(trx, {
        kind: AUTO_TOP_UP_JOB,
        tenantId: DEMO_TENANT_ID,
        payload: { clearing_id: run!.clearing_id },
      }),
    )
    await drain()
    expect(await ordersOf(who.wallet.uuid)).toHaveLength(1)
    expect(await runsOf(who.account.id)).toHaveLength(1)
    expect(await eventsOf(who.account.id)).toHaveLength(1)
    expect(await accountBalance(app.db, who.ledger, EUR)).toBe('200.00')

    const read = ok<AutoTopUp>(
      await call(who.token, 'GET', `/fiat_accounts/${who.account.id}/auto-top-up`),
    )
    expect(read).toMatchObject({
      topped_up_today: '185.00',
      last_run: { status: 'PLACED', amount: '185.00', order_id: orders[0]!.id, failure: null },
    })
    await expectLedgerInvariants(app)
  })

  it('paid in USDT: a wholesale order at the quote’s rate brings the account to top_up_to', async () => {
    const who = await holder('100.00', '0')
    await fund(app.db, who.wallet.uuid, CUR.USDT_TRON, '1000')
    ok(await put(who, who.account.id, settings(who, { from_currency: CUR.USDT_TRON })))
    await pay(who, '90.00', 'usdt')
    await drain()
    expect(await ordersOf(who.wallet.uuid)).toEqual([
      expect.objectContaining({ order_type: 'TRANSFER_CARD_WHOLESALE', status: 'COMPLETE' }),
    ])
    expect(await accountBalance(app.db, who.ledger, EUR)).toBe('200.00')
    const [placed] = await eventsOf(who.account.id)
    expect(placed?.payload).toMatchObject({
      amount: '190.00',
      currency: 'EUR',
      from_currency: 'USDT',
    })
    await expectLedgerInvariants(app)
  })

  it('turned off before its job ran: nothing is placed and nothing is told', async () => {
    const who = await holder('100.00')
    ok(await put(who, who.account.id, settings(who)))
    await pay(who, '90.00', 'then-off')
    expect(await runsOf(who.account.id)).toHaveLength(1)
    ok(await put(who, who.account.id, settings(who, { enabled: false })))
    await drain()
    expect(await runsOf(who.account.id)).toEqual([])
    expect(await ordersOf(who.wallet.uuid)).toEqual([])
    expect(await eventsOf(who.account.id)).toEqual([])
  })

  it('the daily cap clips the top-up, then refuses it: one DAILY_CAP_REACHED event, no retry', async () => {
    const who = await holder('100.00')
    ok(await put(who, who.account.id, settings(who, { daily_cap: '150.00' })))
    // 100 − 85 = 15: 185 needed, 150 left of the cap.
    await pay(who, '85.00', 'first')
    await drain()
    expect(await accountBalance(app.db, who.ledger, EUR)).toBe('165.00')
    // 165 − 130 = 35: the cap is used up.
    await pay(who, '130.00', 'second')
    await drain()
    expect(await accountBalance(app.db, who.ledger, EUR)).toBe('35.00')
    expect(await ordersOf(who.wallet.uuid)).toHaveLength(1)
    expect(
      (await runsOf(who.account.id)).map((run) => [run.status, run.amount_minor, run.failure]),
    ).toEqual([
      ['PLACED', '15000', null],
      ['FAILED', '0', 'DAILY_CAP_REACHED'],
    ])
    expect((await eventsOf(who.account.id)).map((event) => event.kind)).toEqual([
      'card.auto_top_up.placed',
      'card.auto_top_up.failed',
    ])
    expect((await eventsOf(who.account.id))[1]!.payload).toMatchObject({
      reason: 'DAILY_CAP_REACHED',
      amount: '0.00',
    })
    const read = ok<AutoTopUp>(
      await call(who.token, 'GET', `/fiat_accounts/${who.account.id}/auto-top-up`),
    )
    expect(read).toMatchObject({
      topped_up_today: '150.00',
      last_run: { status: 'FAILED', failure: 'DAILY_CAP_REACHED' },
    })
  })

  it('a wallet that cannot pay: one INSUFFICIENT_FUNDS event, no order, the job done', async () => {
    const who = await holder('100.00', '20')
    ok(await put(who, who.account.id, settings(who)))
    await pay(who, '90.00', 'broke')
    const jobsBefore = (await autoTopUpJobs()).length
    await drain()
    expect(await ordersOf(who.wallet.uuid)).toEqual([])
    expect(await runsOf(who.account.id)).toEqual([
      { status: 'FAILED', amount_minor: '19000', failure: 'INSUFFICIENT_FUNDS', order_id: null },
    ])
    const events = await eventsOf(who.account.id)
    expect(events).toEqual([
      {
        kind: 'card.auto_top_up.failed',
        payload: expect.objectContaining({ reason: 'INSUFFICIENT_FUNDS', amount: '190.00' }),
      },
    ])
    // Completed on its first try: the runner does not retry it.
    const jobs = await autoTopUpJobs()
    expect(jobs).toHaveLength(jobsBefore)
    expect(jobs.every((job) => job.done_at !== null && job.last_error === null)).toBe(true)
    expect(await balances(app.db, who.wallet.uuid, CUR.EUR)).toEqual({
      available: '20.00',
      held: '0.00',
    })
  })
})
