import type { FastifyInstance } from 'fastify'
import { sql } from 'kysely'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { fromMinor, toMinor } from '../../../contract/money.ts'
import type { Order, Quote } from '../../../contract/orders.ts'
import { createTestApp, describeServer, expectProblem } from '../../test-support.ts'
import { expectLedgerInvariants } from '../ledger/ledger-test-support.ts'
import {
  balances,
  CUR,
  entriesOf,
  externalAddress,
  fund,
  getOrder,
  type OrderUser,
  orderUser,
  place,
  quote,
} from './order-fixtures.ts'
import { quoteHash } from './quote-token.ts'

/**
 * Idempotency and races. On PGlite requests take turns on the one
 * connection; on PostgreSQL they truly run at once, on a pool.
 */
describeServer('orders under retries and races', () => {
  let app: FastifyInstance
  beforeAll(async () => {
    // Withdrawals complete at their first run: no blocks to wait for. Quotes answer at
    // once and outlive a slow run (100 quotes taken one by one, then 100 placements).
    app = await createTestApp({
      SANDBOX_BLOCK_MS: '0',
      RATES_SANDBOX_LATENCY_MS: '0',
      QUOTE_TTL_SECONDS: '600',
    })
  })
  afterAll(() => app?.close())

  const exchangeQuote = (user: OrderUser, amount = '10') =>
    quote(app, user, {
      order_type: 'EXCHANGE_CRYPTO_INTERNAL',
      from_uuid: CUR.USDT_TRON,
      to_uuid: CUR.EUR,
      amount_from: amount,
    })

  async function drainJobs() {
    for (;;) {
      const report = await app.jobs.runDue({ now: new Date(), limit: 50 })
      if (report.done + report.rescheduled + report.failed === 0) return
    }
  }

  const ordersOf = (walletId: string) =>
    app.db.selectFrom('orders').select(['id', 'status']).where('wallet_id', '=', walletId).execute()

  it('the same key and body answer the first answer again; another body is 409', async () => {
    const user = await orderUser(app)
    await fund(app.db, user.walletId, CUR.USDT_TRON, '100')
    const q = await exchangeQuote(user)
    const body = { quote_id: q.quote_id, request_id: 'pay-rent-2025-06', note: 'Rent' }
    const first = await place(app, user, q.order_type, body)
    expect(first.statusCode).toBe(201)
    expect(first.headers['idempotent-replayed']).toBeUndefined()
    const order = first.json<Order>()
    expect(order.request_id).toBe('pay-rent-2025-06')
    // An exchange is complete as it is placed (issue 29): both steps, at the same instant.
    expect(order.timeline).toEqual([
      {
        status: 'NEW',
        code: 'FUNDS_HELD',
        at: order.created_at,
        note: 'Order placed; the funds are held',
      },
      {
        status: 'COMPLETE',
        code: 'EXCHANGED',
        at: order.created_at,
        note: 'Exchanged at the quoted rate',
      },
    ])

    // The replay is the first answer, byte for byte, and runs no job.
    await drainJobs()
    expect((await getOrder(app, user, order.id)).status).toBe('COMPLETE')
    const again = await place(app, user, q.order_type, body)
    expect(again.statusCode).toBe(201)
    expect(again.headers['idempotent-replayed']).toBe('true')
    expect(again.json()).toEqual(first.json())
    expect(again.json<Order>().timeline.map((event) => event.code)).toEqual([
      'FUNDS_HELD',
      'EXCHANGED',
    ])

    const otherNote = await place(app, user, q.order_type, { ...body, note: 'Rent, June' })
    expectProblem(otherNote, 409, 'IDEMPOTENCY_CONFLICT')
    const otherType = await place(app, user, 'WITHDRAWAL_CRYPTO', body)
    expectProblem(otherType, 409, 'IDEMPOTENCY_CONFLICT')
    // The same key with another quote: 409, and that quote stays free to place.
    const q2 = await exchangeQuote(user)
    expectProblem(
      await place(app, user, q2.order_type, { ...body, quote_id: q2.quote_id }),
      409,
      'IDEMPOTENCY_CONFLICT',
    )
    expect((await place(app, user, q2.order_type, { quote_id: q2.quote_id })).statusCode).toBe(201)
    expect(await ordersOf(user.walletId)).toHaveLength(2)
  })

  it('the Idempotency-Key header is the key when the body has none; without either, the quote is', async () => {
    const user = await orderUser(app)
    await fund(app.db, user.walletId, CUR.USDT_TRON, '100')
    const q = await exchangeQuote(user)
    const key = { 'idempotency-key': 'tap-1' }
    const first = await place(app, user, q.order_type, { quote_id: q.quote_id }, key)
    expect(first.json<Order>().request_id).toBe('tap-1')
    const second = await place(app, user, q.order_type, { quote_id: q.quote_id }, key)
    expect(second.headers['idempotent-replayed']).toBe('true')
    expect(second.json<Order>().id).toBe(first.json<Order>().id)

    const q2 = await exchangeQuote(user)
    const bare = await place(app, user, q2.order_type, { quote_id: q2.quote_id })
    expect(bare.json<Order>().request_id).toBe(`quote:${quoteHash(q2.quote_id)}`)
    const tappedTwice = await place(app, user, q2.order_type, { quote_id: q2.quote_id })
    expect(tappedTwice.statusCode).toBe(201)
    expect(tappedTwice.headers['idempotent-replayed']).toBe('true')
    expectProblem(
      await place(app, user, q2.order_type, { quote_id: q2.quote_id, note: 'changed my mind' }),
      409,
      'IDEMPOTENCY_CONFLICT',
    )
    // Keys are per person: another person's "tap-1" is theirs.
    const other = await orderUser(app)
    await fund(app.db, other.walletId, CUR.USDT_TRON, '100')
    const q3 = await exchangeQuote(other)
    const theirs = await place(app, other, q3.order_type, { quote_id: q3.quote_id }, key)
    expect(theirs.statusCode).toBe(201)
    expect(theirs.headers['idempotent-replayed']).toBeUndefined()
  })

  it('50 parallel requests under one key place one order and settle once', async () => {
    const user = await orderUser(app)
    await fund(app.db, user.walletId, CUR.USDT_TRON, '100')
    const q = await exchangeQuote(user, '25')
    const responses = await Promise.all(
      Array.from({ length: 50 }, () =>
        place(app, user, q.order_type, { quote_id: q.quote_id, request_id: 'double-tap' }),
      ),
    )
    expect(responses.map((response) => response.statusCode)).toEqual(Array(50).fill(201))
    const ids = new Set(responses.map((response) => response.json<Order>().id))
    expect(ids.size).toBe(1)
    const fresh = responses.filter((response) => !response.headers['idempotent-replayed'])
    expect(fresh).toHaveLength(1)

    const orders = await ordersOf(user.walletId)
    expect(orders).toHaveLength(1)
    expect(await entriesOf(app.db, orders[0]!.id)).toEqual(['settle'])
    expect(await balances(app.db, user.walletId, CUR.USDT_TRON)).toEqual({
      available: fromMinor(100_000_000n - toMinor(q.total, 6), 6),
      held: '0.000000',
    })
    await expectLedgerInvariants(app)
  })

  it('100 parallel withdrawals racing one balance never overdraw it, and the ledger balances', async () => {
    const user = await orderUser(app)
    const start = '1000.000000'
    await fund(app.db, user.walletId, CUR.USDT_TRON, start)
    const address = externalAddress('tron')
    const quotes: Quote[] = []
    for (let i = 0; i < 100; i++) {
      quotes.push(
        await quote(app, user, {
          order_type: 'WITHDRAWAL_CRYPTO',
          from_uuid: CUR.USDT_TRON,
          address,
          amount_from: '20',
        }),
      )
    }
    const responses = await Promise.all(
      quotes.map((q) => place(app, user, q.order_type, { quote_id: q.quote_id })),
    )
    const accepted = responses.filter((response) => response.statusCode === 201)
    const refused = responses.filter((response) => response.statusCode !== 201)
    for (const response of refused) expectProblem(response, 422, 'INSUFFICIENT_FUNDS')

    const totals = accepted.map((response) => toMinor(response.json<Order>().total, 6))
    const spent = totals.reduce((sum, total) => sum + total, 0n)
    const startMinor = toMinor(start, 6)
    expect(accepted.length).toBeGreaterThan(0)
    expect(refused.length).toBeGreaterThan(0)
    expect(spent).toBeLessThanOrEqual(startMinor)
    // Refusals are only for want of money: no refused order would have fitted.
    const smallest = totals.reduce((min, total) => (total < min ? total : min))
    expect(startMinor - spent).toBeLessThan(smallest)
    expect(await balances(app.db, user.walletId, CUR.USDT_TRON)).toEqual({
      available: fromMinor(startMinor - spent, 6),
      held: fromMinor(spent, 6),
    })

    await drainJobs()
    const orders = await ordersOf(user.walletId)
    expect(orders).toHaveLength(accepted.length)
    expect(orders.every((order) => order.status === 'COMPLETE')).toBe(true)
    expect(await balances(app.db, user.walletId, CUR.USDT_TRON)).toEqual({
      available: fromMinor(startMinor - spent, 6),
      held: '0.000000',
    })
    // One hold and one settlement per order, nothing else.
    const entries = await sql<{ step: string; n: string }>`
      select split_part(idempotency_key, ':', 3) as step, count(*) as n
      from journal_entries
      where idempotency_key like 'order:%' and split_part(idempotency_key, ':', 2) in (
        select id::text from orders where wallet_id = ${user.walletId}::uuid)
      group by 1 order by 1`.execute(app.db)
    expect(entries.rows).toEqual([
      { step: 'hold', n: String(accepted.length) },
      { step: 'settle', n: String(accepted.length) },
    ])
    const perCurrency = await sql`
      select currency_uuid, sum(amount_minor) as sum from postings
      group by currency_uuid having sum(amount_minor) <> 0`.execute(app.db)
    expect(perCurrency.rows).toEqual([])
    await expectLedgerInvariants(app)
  }, 120_000)
})
