import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { KYC_STATUSES, type KycStatus } from '../../../contract/enums.ts'
import type { Order } from '../../../contract/orders.ts'
import { DEMO_TENANT_ID } from '../../../contract/tenancy.ts'
import {
  createFiatAccount,
  createTestApp,
  decideKyc,
  describeServer,
  expectProblem,
  headers,
} from '../../test-support.ts'
import { defaultProgramId } from '../issuing/default-programs.ts'
import {
  balances,
  CUR,
  externalAddress,
  fund,
  getOrder,
  type OrderUser,
  orderUser,
  place,
  quote,
} from '../orders/order-fixtures.ts'

describeServer('the KYC gate on orders and card issuing', () => {
  let app: FastifyInstance
  beforeAll(async () => {
    app = await createTestApp()
  })
  afterAll(() => app?.close())

  /** A person whose verification is `status`, with a funded wallet. */
  const personIn = async (status: KycStatus) => {
    const user = await orderUser(app)
    if (status !== 'APPROVED') await decideKyc(app, user.token, status)
    await fund(app.db, user.walletId, CUR.USDT_TRON, '500')
    await fund(app.db, user.walletId, CUR.EUR, '100.00')
    return user
  }
  const issue = (user: OrderUser, path: string, body: Record<string, unknown>) =>
    app.inject({
      method: 'POST',
      url: `/api/v1/issuing/cards/${path}`,
      headers: headers({ authorization: user.token }),
      payload: { form_factor: 'VIRTUAL', ...body },
    })

  it.each(KYC_STATUSES)('%s: cards are issued only when APPROVED', async (status) => {
    const user = await personIn(status)
    const account = await createFiatAccount(
      app,
      user.token,
      user.walletId,
      defaultProgramId(DEMO_TENANT_ID, 'eur-prepaid'),
    )
    const answers = [
      await issue(user, 'create', {
        wallet_uuid: user.walletId,
        program_id: defaultProgramId(DEMO_TENANT_ID, 'eur-prepaid'),
      }),
      await issue(user, 'balance', { fiat_account_id: account.id }),
    ]
    for (const response of answers) {
      if (status === 'APPROVED') expect(response.statusCode, response.body).toBe(201)
      else expect(expectProblem(response, 403, 'KYC_REQUIRED').kyc_status).toBe(status)
    }
    const cards = await app.db
      .selectFrom('cards')
      .select('id')
      .where('wallet_id', '=', user.walletId)
      .execute()
    expect(cards).toHaveLength(status === 'APPROVED' ? 2 : 0)
  })

  it.each(KYC_STATUSES)('%s: withdrawals and fiat deposits only when APPROVED', async (status) => {
    const user = await personIn(status)
    const withdrawal = await quote(app, user, {
      order_type: 'WITHDRAWAL_CRYPTO',
      from_uuid: CUR.USDT_TRON,
      address: externalAddress('tron'),
      amount_from: '50',
    })
    const deposit = await quote(app, user, {
      order_type: 'DEPOSIT_FIAT_SEPA',
      from_uuid: CUR.EUR,
      amount_from: '100.00',
    })
    // An exchange stays inside the platform: no identity check.
    const exchange = await quote(app, user, {
      order_type: 'EXCHANGE_CRYPTO_INTERNAL',
      from_uuid: CUR.USDT_TRON,
      to_uuid: CUR.EUR,
      amount_from: '50',
    })
    for (const q of [withdrawal, deposit]) {
      const response = await place(app, user, q.order_type, { quote_id: q.quote_id })
      if (status === 'APPROVED') expect(response.statusCode, response.body).toBe(201)
      else expect(expectProblem(response, 403, 'KYC_REQUIRED').kyc_status).toBe(status)
    }
    const exchanged = await place(app, user, exchange.order_type, { quote_id: exchange.quote_id })
    expect(exchanged.statusCode, exchanged.body).toBe(201)
  })

  it('a refused withdrawal holds nothing, and goes through once the person is verified', async () => {
    const user = await personIn('PENDING')
    const q = await quote(app, user, {
      order_type: 'WITHDRAWAL_CRYPTO',
      from_uuid: CUR.USDT_TRON,
      address: externalAddress('tron'),
      amount_from: '50',
    })
    expectProblem(
      await place(app, user, q.order_type, { quote_id: q.quote_id }),
      403,
      'KYC_REQUIRED',
    )
    const orders = await app.db
      .selectFrom('orders')
      .select('id')
      .where('quote_id', '=', q.quote_id)
      .execute()
    expect(orders).toEqual([])
    await decideKyc(app, user.token, 'APPROVED')
    const placed = await place(app, user, q.order_type, { quote_id: q.quote_id })
    expect(placed.statusCode, placed.body).toBe(201)
  })

  it.each(['REJECT', 'HOLD', 'UNVERIFIED'] as const)(
    'a withdrawal placed while APPROVED does not leave after a move to %s: FAILED, released',
    async (later) => {
      const user = await personIn('APPROVED')
      const q = await quote(app, user, {
        order_type: 'WITHDRAWAL_CRYPTO',
        from_uuid: CUR.USDT_TRON,
        address: externalAddress('tron'),
        amount_from: '50',
      })
      const response = await place(app, user, q.order_type, { quote_id: q.quote_id })
      expect(response.statusCode, response.body).toBe(201)
      const order = response.json<Order>()
      expect((await balances(app.db, user.walletId, CUR.USDT_TRON)).held).not.toBe('0.000000')
      await decideKyc(app, user.token, later)
      // Every due job, not only the first ten: the file's earlier orders are queued too.
      await app.jobs.runDue({ now: new Date(Date.now() + 1_000), limit: 1_000 })
      const after = await getOrder(app, user, order.id)
      expect(after).toMatchObject({ status: 'FAILED', failure_code: 'KYC_REQUIRED' })
      const row = await app.db
        .selectFrom('orders')
        .select('submitted_at')
        .where('id', '=', order.id)
        .executeTakeFirstOrThrow()
      expect(row.submitted_at).toBeNull()
      expect(await balances(app.db, user.walletId, CUR.USDT_TRON)).toEqual({
        available: '500.000000',
        held: '0.000000',
      })
    },
  )
})
