import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, expect, it } from 'vitest'
import type { Order } from '../../../contract/orders.ts'
import { createTestApp, describeServer, expectProblem } from '../../test-support.ts'
import { expectLedgerInvariants } from '../ledger/ledger-test-support.ts'
import {
  at,
  BANK_MS,
  BLOCK_MS,
  balances,
  bankTransfer,
  CUR,
  cancel,
  entriesOf,
  eventCodes,
  externalAddress,
  fund,
  getOrder,
  IBAN,
  orderUser,
  placed,
  quote,
  recordsOf,
  sepaWithdrawal,
  statuses,
} from './order-fixtures.ts'

/** Cancelling an order: what may be cancelled, the hold returned, and what comes after. */
describeServer('orders cancelled', () => {
  let app: FastifyInstance
  beforeAll(async () => {
    app = await createTestApp({
      SANDBOX_BANK_MS: String(BANK_MS),
      SANDBOX_BLOCK_MS: String(BLOCK_MS),
    })
  })
  afterAll(() => app?.close())

  it('a NEW order cancels, the hold comes back at once, and its job then does nothing', async () => {
    const user = await orderUser(app)
    await fund(app.db, user.walletId, CUR.USDT_TRON, '100')
    // A withdrawal: an exchange is COMPLETE as it is placed (issue 29).
    const withdrawal = await quote(app, user, {
      order_type: 'WITHDRAWAL_CRYPTO',
      from_uuid: CUR.USDT_TRON,
      address: externalAddress('tron'),
      amount_from: '50',
    })
    const order = await placed(app, user, withdrawal)
    const response = await cancel(app, user, order.id)
    expect(response.statusCode, response.body).toBe(200)
    const canceled = response.json<Order>()
    expect(statuses(canceled)).toEqual(['NEW', 'CANCELED'])
    expect(eventCodes(canceled)).toEqual(['FUNDS_HELD', 'CANCELED'])
    expect(await balances(app.db, user.walletId, CUR.USDT_TRON)).toEqual({
      available: '100.000000',
      held: '0.000000',
    })
    expect((await recordsOf(app.db, order.id)).every((r) => r.status === 'canceled')).toBe(true)

    await app.jobs.runDue({ now: new Date() })
    expect((await getOrder(app, user, order.id)).status).toBe('CANCELED')
    expect(await balances(app.db, user.walletId, CUR.EUR)).toEqual({
      available: '0.00',
      held: '0.00',
    })
    expect(await entriesOf(app.db, order.id)).toEqual(['hold', 'release'])
    // Twice is no more than once.
    const again = expectProblem(await cancel(app, user, order.id), 409, 'ORDER_NOT_CANCELABLE')
    expect(again.order_status).toBe('CANCELED')
    await expectLedgerInvariants(app)
  })

  it('an order the rail has, or that is done, cannot be cancelled; another person’s is not found', async () => {
    const { user, order } = await sepaWithdrawal(app, IBAN.OK)
    const t0 = new Date()
    await app.jobs.runDue({ now: t0 })
    const pending = expectProblem(await cancel(app, user, order.id), 409, 'ORDER_NOT_CANCELABLE')
    expect(pending).toMatchObject({
      order_status: 'PENDING',
      detail: 'The order is PENDING and can no longer be canceled.',
    })
    await app.jobs.runDue({ now: at(t0, BANK_MS) })
    const complete = expectProblem(await cancel(app, user, order.id), 409, 'ORDER_NOT_CANCELABLE')
    expect(complete.order_status).toBe('COMPLETE')

    const stranger = await orderUser(app)
    expectProblem(await cancel(app, stranger, order.id), 404, 'ORDER_NOT_FOUND')
  })

  it('a deposit cancels while its transfer has not come; a transfer after that is refused', async () => {
    const user = await orderUser(app)
    const q = await quote(app, user, {
      order_type: 'DEPOSIT_FIAT_SEPA',
      from_uuid: CUR.EUR,
      amount_from: '40.00',
    })
    const order = await placed(app, user, q)
    const response = await cancel(app, user, order.id)
    expect(response.statusCode, response.body).toBe(200)
    expect(eventCodes(response.json<Order>())).toEqual(['PLACED', 'AWAITING_TRANSFER', 'CANCELED'])
    expect((await recordsOf(app.db, order.id)).map((r) => r.status)).toEqual(['canceled'])

    const late = await bankTransfer(app, {
      reference: order.deposit_instructions!.reference,
      amount: q.total,
      currency: 'EUR',
    })
    expect(expectProblem(late, 409, 'ORDER_NOT_AWAITING_TRANSFER').order_status).toBe('CANCELED')
    expect(await entriesOf(app.db, order.id)).toEqual([])

    // Once the transfer is in, the deposit is done.
    const paid = await placed(
      app,
      user,
      await quote(app, user, {
        order_type: 'DEPOSIT_FIAT_SEPA',
        from_uuid: CUR.EUR,
        amount_from: '40.00',
      }),
    )
    const transfer = await bankTransfer(app, {
      reference: paid.deposit_instructions!.reference,
      amount: q.total,
      currency: 'EUR',
    })
    expect(transfer.statusCode).toBe(201)
    expect(
      expectProblem(await cancel(app, user, paid.id), 409, 'ORDER_NOT_CANCELABLE').order_status,
    ).toBe('COMPLETE')
  })
})
