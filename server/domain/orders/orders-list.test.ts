import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, expect, it } from 'vitest'
import type { Order, OrderList } from '../../../contract/orders.ts'
import { createTestApp, describeServer, expectProblem } from '../../test-support.ts'
import { CUR, fund, getOrder, orderUser, placed, quote, RAIL_PACE, v1 } from './order-fixtures.ts'

/** The caller’s orders read back: the list, its filters and pages, and one order by its id. */
describeServer('orders: the list and one order', () => {
  let app: FastifyInstance
  beforeAll(async () => {
    app = await createTestApp(RAIL_PACE)
  })
  afterAll(() => app?.close())

  it('lists the caller’s orders newest first, filtered, each with its timeline', async () => {
    const user = await orderUser(app)
    const other = await orderUser(app)
    await fund(app.db, user.walletId, CUR.USDT_TRON, '100')
    const deposit = await placed(
      app,
      user,
      await quote(app, user, {
        order_type: 'DEPOSIT_FIAT_SEPA',
        from_uuid: CUR.EUR,
        amount_from: '10.00',
      }),
    )
    const exchange = await placed(
      app,
      user,
      await quote(app, user, {
        order_type: 'EXCHANGE_CRYPTO_INTERNAL',
        from_uuid: CUR.USDT_TRON,
        to_uuid: CUR.EUR,
        amount_from: '20',
      }),
    )
    await placed(
      app,
      other,
      await quote(app, other, {
        order_type: 'DEPOSIT_FIAT_SEPA',
        from_uuid: CUR.EUR,
        amount_from: '10.00',
      }),
    )

    const all = (await v1(app, user, 'GET', '/orders')).json<OrderList>()
    expect(all).toMatchObject({ total: 2, limit: 10, offset: 0, is_last_page: true })
    expect(all.data.map((order) => order.id)).toEqual([exchange.id, deposit.id])
    expect(all.data[1]!.timeline.map((event) => event.status)).toEqual(['NEW', 'PENDING'])
    expect(all.data[1]!.deposit_instructions?.reference).toBe(
      deposit.deposit_instructions!.reference,
    )

    const filtered = async (query: string) =>
      (await v1(app, user, 'GET', `/orders?${query}`)).json<OrderList>().data.map((o) => o.id)
    expect(await filtered('status=PENDING')).toEqual([deposit.id])
    expect(await filtered('order_type=EXCHANGE_CRYPTO_INTERNAL')).toEqual([exchange.id])
    expect(await filtered(`wallet_uuid=${user.walletId}&limit=1&offset=1`)).toEqual([deposit.id])
    // A page before the last is not counted unless asked.
    const firstOfTwo = (await v1(app, user, 'GET', '/orders?limit=1')).json<OrderList>()
    expect(firstOfTwo).toMatchObject({ limit: 1, is_last_page: false })
    expect(firstOfTwo).not.toHaveProperty('total')
    expect((await v1(app, user, 'GET', '/orders?limit=1&with_total=true')).json()).toMatchObject({
      total: 2,
    })
    expect(await filtered(`wallet_uuid=${other.walletId}`)).toEqual([])

    // Another person's order is not there, exactly like a missing one.
    expectProblem(await v1(app, other, 'GET', `/orders/${deposit.id}`), 404, 'ORDER_NOT_FOUND')
    expectProblem(
      await v1(app, other, 'GET', '/orders/0190f5a4-0000-7000-8000-000000000000'),
      404,
      'ORDER_NOT_FOUND',
    )
    const single = await getOrder(app, user, exchange.id)
    expect(single satisfies Order).toMatchObject({
      id: exchange.id,
      timeline: [{ status: 'NEW' }, { status: 'COMPLETE' }],
    })
  })
})
