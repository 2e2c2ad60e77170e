import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, expect, it, vi } from 'vitest'
import type { Quote } from '../../../contract/orders.ts'
import { DEMO_TENANT_ID } from '../../../contract/tenancy.ts'
import {
  bearer,
  createTestApp,
  describeServer,
  expectProblem,
  headers,
} from '../../test-support.ts'
import {
  BANK_MS,
  BLOCK_MS,
  balances,
  CUR,
  exchangeQuote,
  externalAddress,
  fund,
  IBAN,
  insertDestination,
  minus,
  orderCount,
  orderUser,
  place,
  quote,
} from './order-fixtures.ts'
import { insertDestination as insertDestinationOf } from './quote-test-support.ts'

/** The orders refused as they are placed, and what that leaves behind: nothing held, no order. */
describeServer('orders refused at placing', () => {
  let app: FastifyInstance
  beforeAll(async () => {
    app = await createTestApp({
      SANDBOX_BANK_MS: String(BANK_MS),
      SANDBOX_BLOCK_MS: String(BLOCK_MS),
    })
  })
  afterAll(() => app?.close())

  it('a quote whose saved destination was deleted since cannot be placed: 422, nothing held', async () => {
    const user = await orderUser(app)
    await fund(app.db, user.walletId, CUR.EUR, '300.00')
    const destination = await insertDestination(app.db, user.walletId, {
      type: 'SEPA',
      iban: IBAN.OK,
    })
    const q = await quote(app, user, {
      order_type: 'WITHDRAWAL_FIAT_SEPA',
      from_uuid: CUR.EUR,
      destination_id: destination,
      amount_from: '100.00',
    })
    await app.db
      .updateTable('counterparty_destinations')
      .set({ deleted_at: new Date() })
      .where('id', '=', destination)
      .execute()
    const response = await place(app, user, q.order_type, { quote_id: q.quote_id })
    expectProblem(response, 422, 'DESTINATION_NOT_FOUND')
    expect(await orderCount(app, user.walletId)).toBe('0')
    expect((await balances(app.db, user.walletId, CUR.EUR)).available).toBe('300.00')
  })

  it('a quote whose destination was edited since cannot be placed: 422 DESTINATION_CHANGED, nothing held', async () => {
    const user = await orderUser(app)
    await fund(app.db, user.walletId, CUR.EUR, '300.00')
    await fund(app.db, user.walletId, CUR.USDT_TRON, '100')
    const sepa = await insertDestinationOf(app.db, DEMO_TENANT_ID, user.walletId, {
      type: 'SEPA',
      iban: IBAN.OK,
      bic: 'COBADEFFXXX',
    })
    const coins = await insertDestinationOf(app.db, DEMO_TENANT_ID, user.walletId, {
      type: 'CRYPTO_EXTERNAL',
      chain: 'tron',
      address: externalAddress('tron'),
    })
    const book = (id: string) => `/api/v2/counterparties/${user.walletId}/${id}`
    const patch = async (url: string, payload: object) => {
      const response = await app.inject({
        method: 'PATCH',
        url,
        headers: headers(bearer(user.token)),
        payload,
      })
      expect(response.statusCode, response.body).toBe(200)
    }
    const sepaQuote = () =>
      quote(app, user, {
        order_type: 'WITHDRAWAL_FIAT_SEPA',
        from_uuid: CUR.EUR,
        destination_id: sepa.destinationId,
        amount_from: '100.00',
      })
    const edits: [() => Promise<Quote>, string, object][] = [
      [
        sepaQuote,
        `${book(sepa.counterpartyId)}/destinations/${sepa.destinationId}`,
        { iban: 'DE02120300000000202051' },
      ],
      [
        sepaQuote,
        `${book(sepa.counterpartyId)}/destinations/${sepa.destinationId}`,
        { bic: 'DEUTDEFFXXX' },
      ],
      // The beneficiary's name is what the bank is told too.
      [sepaQuote, book(sepa.counterpartyId), { last_name: 'Schmidt-Weber' }],
      [
        () =>
          quote(app, user, {
            order_type: 'WITHDRAWAL_CRYPTO',
            from_uuid: CUR.USDT_TRON,
            destination_id: coins.destinationId,
            amount_from: '40',
          }),
        `${book(coins.counterpartyId)}/destinations/${coins.destinationId}`,
        { address: externalAddress('tron') },
      ],
    ]
    for (const [quoteIt, url, edit] of edits) {
      const q = await quoteIt()
      await patch(url, edit)
      const problem = expectProblem(
        await place(app, user, q.order_type, { quote_id: q.quote_id }),
        422,
        'DESTINATION_CHANGED',
      )
      expect(problem.errors).toEqual([{ field: '/body/quote_id', message: expect.any(String) }])
    }
    expect(await orderCount(app, user.walletId)).toBe('0')
    expect(await balances(app.db, user.walletId, CUR.EUR)).toEqual({
      available: '300.00',
      held: '0.00',
    })

    // A label is not paid to: the quote still places. So does a quote of the edited destination.
    const q = await sepaQuote()
    await patch(`${book(sepa.counterpartyId)}/destinations/${sepa.destinationId}`, {
      label: 'Rent',
    })
    expect((await place(app, user, q.order_type, { quote_id: q.quote_id })).statusCode).toBe(201)
  })

  it('an expired quote is 422 QUOTE_EXPIRED and holds nothing', async () => {
    const user = await orderUser(app)
    await fund(app.db, user.walletId, CUR.USDT_TRON, '100')
    const q = await exchangeQuote(app, user)
    // Placed the moment it expires: the clock alone moves on, the token says when.
    vi.useFakeTimers({ toFake: ['Date'], now: Date.parse(q.expires_at) })
    const late = await place(app, user, q.order_type, { quote_id: q.quote_id }).finally(() =>
      vi.useRealTimers(),
    )
    const problem = expectProblem(late, 422, 'QUOTE_EXPIRED')
    expect(problem.detail).toBe(`The quote expired at ${q.expires_at}: get a new one.`)
    expect(problem.errors).toEqual([{ field: '/body/quote_id', message: expect.any(String) }])
    expect(await orderCount(app, user.walletId)).toBe('0')
    expect(await balances(app.db, user.walletId, CUR.USDT_TRON)).toEqual({
      available: '100.000000',
      held: '0.000000',
    })
  })

  it('not enough money is 422 INSUFFICIENT_FUNDS naming the currency, and leaves nothing behind', async () => {
    const user = await orderUser(app)
    await fund(app.db, user.walletId, CUR.USDT_TRON, '30')
    const q = await exchangeQuote(app, user, '50')
    const problem = expectProblem(
      await place(app, user, q.order_type, { quote_id: q.quote_id }),
      422,
      'INSUFFICIENT_FUNDS',
    )
    expect(problem.detail).toBe(
      `Not enough USDT: the order needs ${q.total} USDT, the wallet has 30.000000 USDT available.`,
    )
    expect(await orderCount(app, user.walletId)).toBe('0')
    const records = await app.db
      .selectFrom('wallet_transactions')
      .select('id')
      .where('wallet_id', '=', user.walletId)
      .execute()
    expect(records).toEqual([])
    // Topped up, the same quote places.
    await fund(app.db, user.walletId, CUR.USDT_TRON, '30')
    expect((await place(app, user, q.order_type, { quote_id: q.quote_id })).statusCode).toBe(201)
  })

  it('a quote of another type, of another person or of no one is refused', async () => {
    const user = await orderUser(app)
    const other = await orderUser(app)
    await fund(app.db, user.walletId, CUR.USDT_TRON, '100')
    const q = await exchangeQuote(app, user)
    const mismatch = expectProblem(
      await place(app, user, 'WITHDRAWAL_CRYPTO', { quote_id: q.quote_id }),
      422,
      'QUOTE_MISMATCH',
    )
    expect(mismatch.detail).toBe(
      'This quote is for EXCHANGE_CRYPTO_INTERNAL, not WITHDRAWAL_CRYPTO.',
    )
    expectProblem(
      await place(app, other, q.order_type, { quote_id: q.quote_id }),
      422,
      'QUOTE_NOT_FOUND',
    )
    expectProblem(
      await place(app, user, q.order_type, { quote_id: '0190f5a4-0000-7000-8000-000000000000' }),
      422,
      'QUOTE_NOT_FOUND',
    )
    expectProblem(
      await place(app, user, 'NOT_A_TYPE' as 'WITHDRAWAL_CRYPTO', { quote_id: q.quote_id }),
      422,
      'VALIDATION_FAILED',
    )
    expect(await orderCount(app, user.walletId)).toBe('0')
  })

  it('a quote places one order: another key for it is 409 QUOTE_USED', async () => {
    const user = await orderUser(app)
    await fund(app.db, user.walletId, CUR.USDT_TRON, '100')
    const q = await exchangeQuote(app, user)
    const first = await place(app, user, q.order_type, { quote_id: q.quote_id, request_id: 'a' })
    expect(first.statusCode).toBe(201)
    expectProblem(
      await place(app, user, q.order_type, { quote_id: q.quote_id, request_id: 'b' }),
      409,
      'QUOTE_USED',
    )
    expectProblem(
      await place(app, user, q.order_type, { quote_id: q.quote_id }, { 'idempotency-key': 'c' }),
      409,
      'QUOTE_USED',
    )
    expect(await orderCount(app, user.walletId)).toBe('1')
    expect(await balances(app.db, user.walletId, CUR.USDT_TRON)).toEqual({
      available: minus('100.000000', q.total, 6),
      held: '0.000000',
    })
  })
})
