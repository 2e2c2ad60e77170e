import type { FastifyInstance } from 'fastify'
import type { Kysely } from 'kysely'
import { afterAll, beforeAll, expect, it } from 'vitest'
import type { Order } from '../../../contract/orders.ts'
import { DEMO_TENANT_ID } from '../../../contract/tenancy.ts'
import type { DB } from '../../infra/db/schema.ts'
import { SandboxBank } from '../../providers/banking/sandbox.ts'
import { SandboxChainPayouts } from '../../providers/chain/sandbox-payouts.ts'
import { createTestApp, describeServer } from '../../test-support.ts'
import type { Owner } from '../owner.ts'
import {
  balances,
  CUR,
  externalAddress,
  fund,
  type OrderUser,
  orderUser,
  placed,
  quote,
} from './order-fixtures.ts'
import { OrderService } from './service.ts'

/** More cancels at once than the PostgreSQL pool has connections (10). */
const CANCELS = 15

/**
 * An order service as it is right after a start: nothing read yet. On PGlite
 * one connection serves everything, so a read through the service's own
 * handle inside its transaction would wait for itself for ever; on
 * PostgreSQL, enough of them at once exhaust the pool the same way.
 */
describeServer('an order service just started', () => {
  let app: FastifyInstance
  beforeAll(async () => {
    app = await createTestApp()
  })
  afterAll(() => app?.close())

  const freshService = (db: Kysely<DB> = app.db) =>
    new OrderService(
      db,
      {
        bank: new SandboxBank({ payoutMs: 2_000 }),
        chain: new SandboxChainPayouts({ blockMs: 1_000 }),
      },
      { maxConfirmations: 3, quoteTokens: app.services.quotes.tokens },
    )

  async function ownerOf(user: OrderUser): Promise<Owner> {
    const wallet = await app.db
      .selectFrom('wallets')
      .select('user_id')
      .where('id', '=', user.walletId)
      .executeTakeFirstOrThrow()
    return { tenantId: DEMO_TENANT_ID, userId: wallet.user_id }
  }

  /** Withdrawals placed and held, their job not run: an exchange completes as it is placed. */
  async function heldOrders(user: OrderUser, count: number): Promise<Order[]> {
    await fund(app.db, user.walletId, CUR.USDT_TRON, String(count * 20))
    const orders: Order[] = []
    for (let i = 0; i < count; i++) {
      const q = await quote(app, user, {
        order_type: 'WITHDRAWAL_CRYPTO',
        from_uuid: CUR.USDT_TRON,
        address: externalAddress('tron'),
        amount_from: '9',
      })
      orders.push(await placed(app, user, q))
    }
    return orders
  }

  /** The promise, or a failure after `ms` (a hang must fail the test, not stall the run). */
  const within = <T>(ms: number, promise: Promise<T>) =>
    Promise.race([
      promise,
      new Promise<never>((_, reject) =>
        setTimeout(() => reject(new Error(`no answer in ${ms} ms`)), ms),
      ),
    ])

  it('cancels as its very first calls, more at once than there are connections, all answer', async () => {
    const user = await orderUser(app)
    const orders = await heldOrders(user, CANCELS)
    const owner = await ownerOf(user)
    const service = freshService()

    // A deadlock never answers; a busy machine only answers late: the cap is far above that.
    const canceled = await within(
      25_000,
      Promise.all(orders.map((order) => service.cancel(owner, order.id))),
    )
    expect(canceled.map((order) => order.status)).toEqual(orders.map(() => 'CANCELED'))
    expect(canceled[0]!.from).toMatchObject({ currency: 'USDT', amount: '9.000000' })
    expect(await balances(app.db, user.walletId, CUR.USDT_TRON)).toMatchObject({
      held: '0.000000',
    })
  }, 60_000)

  it('a catalogue read that failed is read again on the next call, not failed for good', async () => {
    const user = await orderUser(app)
    const [order] = await heldOrders(user, 1)
    const owner = await ownerOf(user)
    // The first read of the currencies meets a dropped connection; everything else gets through.
    let drops = 1
    const flaky = new Proxy(app.db, {
      get(target, property) {
        if (property === 'selectFrom') {
          return (table: 'currencies') => {
            if (table !== 'currencies' || drops-- <= 0) return target.selectFrom(table)
            const failing = { execute: () => Promise.reject(new Error('connection reset')) }
            return { select: () => failing }
          }
        }
        const value = Reflect.get(target, property, target)
        return typeof value === 'function' ? value.bind(target) : value
      },
    })
    const service = freshService(flaky)

    await expect(service.get(owner, order!.id)).rejects.toThrow('connection reset')
    expect(await service.get(owner, order!.id)).toMatchObject({ id: order!.id, status: 'NEW' })
  })
})
