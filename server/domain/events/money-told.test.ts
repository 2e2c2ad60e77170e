import type { FastifyInstance } from 'fastify'
import { sql } from 'kysely'
import { afterAll, beforeAll, expect, it } from 'vitest'
import type { WalletTransaction } from '../../../contract/wallets.ts'
import { SANCTIONED_ADDRESSES } from '../../providers/chain/sandbox-payouts.ts'
import { createTestApp, describeServer } from '../../test-support.ts'
import {
  bankTransfer,
  CUR,
  externalAddress,
  fund,
  type OrderUser,
  orderUser,
  place,
  placed,
  quote,
  quotedAndPlaced,
  v1,
  walletAddress,
} from '../orders/order-fixtures.ts'
import { drain } from './events-test-support.ts'

/*
 * Issue 28: every money movement is a money command — its ledger entry and
 * its event(s) commit in ONE transaction (the same xmin on both rows), or
 * neither does.
 */

/** The transaction that wrote the entry under `key`, if one did. */
async function entryTx(app: FastifyInstance, key: string) {
  const row = await app.db
    .selectFrom('journal_entries')
    .select(sql<string>`xmin::text`.as('tx'))
    .where('idempotency_key', '=', key)
    .executeTakeFirst()
  return row?.tx
}

/** The events about `id` (an order's, a deposit's) and the transaction of each, oldest first. */
async function eventsOf(app: FastifyInstance, field: 'order_id' | 'transaction_id', id: string) {
  return app.db
    .selectFrom('events')
    .select(['kind', sql<string>`xmin::text`.as('tx')])
    .where(sql<boolean>`payload->>${sql.lit(field)} = ${id}`)
    .orderBy('id')
    .execute()
}

describeServer('events: each money movement tells in the transaction that moves it', () => {
  let app: FastifyInstance
  let user: OrderUser
  beforeAll(async () => {
    app = await createTestApp()
    user = await orderUser(app)
    await fund(app.db, user.walletId, CUR.USDT_TRON, '1000')
    // What the sign-up left due (newcomers.ts' contact jobs) first: the runs below are the orders'.
    await drain(app)
  })
  afterAll(() => app?.close())

  it('an exchange: order.created and order.completed with its settlement, in the placing transaction', async () => {
    const order = await quotedAndPlaced(app, user, {
      order_type: 'EXCHANGE_CRYPTO_INTERNAL',
      from_uuid: CUR.USDT_TRON,
      to_uuid: CUR.EUR,
      amount_from: '100',
    })
    await drain(app)
    const settled = await entryTx(app, `order:${order.id}:settle`)
    expect(await eventsOf(app, 'order_id', order.id)).toEqual([
      { kind: 'order.created', tx: settled },
      { kind: 'order.completed', tx: settled },
    ])
  })

  it('a withdrawal the network refuses: order.failed with the hold released', async () => {
    const order = await quotedAndPlaced(app, user, {
      order_type: 'WITHDRAWAL_CRYPTO',
      from_uuid: CUR.USDT_TRON,
      address: SANCTIONED_ADDRESSES.tron[0]!,
      amount_from: '40',
    })
    await drain(app)
    expect(await eventsOf(app, 'order_id', order.id)).toEqual([
      { kind: 'order.created', tx: await entryTx(app, `order:${order.id}:hold`) },
      { kind: 'order.failed', tx: await entryTx(app, `order:${order.id}:release`) },
    ])
  })

  it('a cancelled withdrawal: order.canceled with the hold released', async () => {
    const order = await quotedAndPlaced(app, user, {
      order_type: 'WITHDRAWAL_CRYPTO',
      from_uuid: CUR.USDT_TRON,
      address: externalAddress('tron'),
      amount_from: '10',
    })
    const canceled = await v1(app, user, 'POST', `/orders/${order.id}/cancel`)
    expect(canceled.statusCode, canceled.body).toBe(200)
    expect(await eventsOf(app, 'order_id', order.id)).toEqual([
      { kind: 'order.created', tx: await entryTx(app, `order:${order.id}:hold`) },
      { kind: 'order.canceled', tx: await entryTx(app, `order:${order.id}:release`) },
    ])
  })

  it('a bank deposit: order.created holding nothing, order.completed with the transfer received', async () => {
    const order = await quotedAndPlaced(app, user, {
      order_type: 'DEPOSIT_FIAT_SEPA',
      from_uuid: CUR.EUR,
      amount_from: '200.00',
    })
    const [created] = await eventsOf(app, 'order_id', order.id)
    expect(created?.kind).toBe('order.created')
    const arrived = await bankTransfer(app, {
      reference: order.deposit_instructions!.reference,
      amount: order.total,
      currency: 'EUR',
    })
    expect(arrived.statusCode, arrived.body).toBe(201)
    expect((await eventsOf(app, 'order_id', order.id)).slice(1)).toEqual([
      { kind: 'order.completed', tx: await entryTx(app, `order:${order.id}:received`) },
    ])
  })

  it('a crypto deposit: deposit.detected as its money arrives pending, deposit.confirmed as it completes', async () => {
    await walletAddress(app, user, 'tron')
    const response = await app.inject({
      method: 'POST',
      url: '/api/sandbox/deposits',
      payload: { wallet_uuid: user.walletId, chain: 'tron', currency: 'USDT', amount: '5' },
    })
    expect(response.statusCode, response.body).toBe(202)
    const deposit = response.json<WalletTransaction>()
    // Recorded, nothing moved yet: nobody is told.
    expect(await eventsOf(app, 'transaction_id', deposit.uuid)).toEqual([])
    let now = Date.now()
    for (let block = 0; block < 40; block++) {
      now += 60_000
      await drain(app, new Date(now))
    }
    expect(await eventsOf(app, 'transaction_id', deposit.uuid)).toEqual([
      { kind: 'deposit.detected', tx: await entryTx(app, `deposit:${deposit.uuid}:seen`) },
      { kind: 'deposit.confirmed', tx: await entryTx(app, `deposit:${deposit.uuid}:confirmed`) },
    ])
  })

  it('a placement that cannot hold its total rolls back its event with it', async () => {
    const poor = await orderUser(app)
    await fund(app.db, poor.walletId, CUR.USDT_TRON, '20')
    await drain(app)
    const exchange = {
      order_type: 'EXCHANGE_CRYPTO_INTERNAL',
      from_uuid: CUR.USDT_TRON,
      to_uuid: CUR.EUR,
      amount_from: '15',
    }
    const firm = await quote(app, poor, exchange)
    // Another order takes the money first.
    await placed(app, poor, await quote(app, poor, exchange))
    const before = await app.db
      .selectFrom('events')
      .select(sql<number>`count(*)::int`.as('n'))
      .where('kind', '=', 'order.created')
      .executeTakeFirstOrThrow()
    const refused = await place(app, poor, 'EXCHANGE_CRYPTO_INTERNAL', { quote_id: firm.quote_id })
    expect(refused.statusCode, refused.body).toBe(422)
    expect(refused.json()).toMatchObject({ code: 'INSUFFICIENT_FUNDS' })
    const after = await app.db
      .selectFrom('events')
      .select(sql<number>`count(*)::int`.as('n'))
      .where('kind', '=', 'order.created')
      .executeTakeFirstOrThrow()
    expect(after.n).toBe(before.n)
    expect(
      await app.db
        .selectFrom('orders')
        .select('id')
        .where('quote_id', '=', firm.quote_id)
        .execute(),
    ).toEqual([])
  })
})
