import type { FastifyInstance } from 'fastify'
import { sql } from 'kysely'
import { afterAll, beforeAll, expect, it } from 'vitest'
import type { CardTransaction, Merchant } from '../../../contract/card-transactions.ts'
import { SANCTIONED_ADDRESSES } from '../../providers/chain/sandbox-payouts.ts'
import { createTestApp, describeServer } from '../../test-support.ts'
import { cardCalls, testCardKeys } from '../cards/card-test-support.ts'
import {
  bankTransfer,
  CUR,
  fund,
  getOrder,
  orderUser,
  placed,
  quote,
} from '../orders/order-fixtures.ts'
import { DISPATCH, drain, eventKinds } from './events-test-support.ts'

const SHOP: Merchant = { name: 'Corner Shop', mcc: '5411', city: 'Lisbon', country: 'PT' }

/** The person's events written while `action` runs: kind and payload, in order. */
async function producedBy(app: FastifyInstance, userId: string, action: () => Promise<unknown>) {
  const before = (await eventKinds(app, userId)).length
  await action()
  const rows = await app.db
    .selectFrom('events')
    .select(['kind', 'payload'])
    .where('user_id', '=', userId)
    .orderBy('id')
    .execute()
  return rows.slice(before)
}

describeServer('events: card payments and orders', () => {
  let app: FastifyInstance
  const keys = testCardKeys()
  beforeAll(async () => {
    app = await createTestApp({ ...keys.env, ...DISPATCH })
  })
  afterAll(() => app?.close())
  const { fundedCard } = cardCalls(() => app)

  const network = async (body: Record<string, unknown>) => {
    const response = await app.inject({
      method: 'POST',
      url: '/api/sandbox/card-transactions',
      payload: body,
    })
    expect(response.statusCode, response.body).toBe(201)
    return response.json<CardTransaction>()
  }
  const ownerOf = async (cardId: string) =>
    (
      await app.db
        .selectFrom('cards')
        .select('user_id')
        .where('id', '=', cardId)
        .executeTakeFirstOrThrow()
    ).user_id

  it('card.authorization.approved / declined (with the reason), settled on clearing, refunded on refund, reversed on reversal', async () => {
    const { card } = await fundedCard(5_000n)
    const userId = await ownerOf(card.id)
    const pay = { card_id: card.id, currency: 'EUR', merchant: SHOP }
    let approved: CardTransaction | undefined
    expect(
      await producedBy(app, userId, async () => {
        approved = await network({ ...pay, type: 'AUTHORIZATION', amount: '12.50' })
      }),
    ).toEqual([
      {
        kind: 'card.authorization.approved',
        payload: {
          card_id: card.id,
          transaction_id: approved!.id,
          amount: '12.50',
          currency: 'EUR',
          merchant_name: 'Corner Shop',
          // Issue 30: how the card was presented (the network's default) and the MCC's group.
          channel: 'chip',
          category: 'groceries',
        },
      },
    ])
    expect(
      await producedBy(app, userId, () =>
        network({ ...pay, type: 'AUTHORIZATION', amount: '900.00' }),
      ),
    ).toEqual([
      {
        kind: 'card.authorization.declined',
        payload: expect.objectContaining({ amount: '900.00', reason: 'INSUFFICIENT_FUNDS' }),
      },
    ])
    const follow = { card_id: card.id, currency: 'EUR', authorization_id: approved!.id }
    expect(
      (
        await producedBy(app, userId, () =>
          network({ ...follow, type: 'CLEARING', amount: '12.00' }),
        )
      ).map((event) => [event.kind, (event.payload as { amount: string }).amount]),
    ).toEqual([['card.transaction.settled', '12.00']])
    expect(
      (
        await producedBy(app, userId, () => network({ ...follow, type: 'REFUND', amount: '2.00' }))
      ).map((event) => [event.kind, (event.payload as { amount: string }).amount]),
    ).toEqual([['card.transaction.refunded', '2.00']])

    // Issue 28: the hold a reversal releases is told, as every money command is.
    const other = await network({ ...pay, type: 'AUTHORIZATION', amount: '1.00' })
    let reversal: CardTransaction | undefined
    expect(
      await producedBy(app, userId, async () => {
        reversal = await network({
          card_id: card.id,
          currency: 'EUR',
          authorization_id: other.id,
          type: 'REVERSAL',
          amount: '1.00',
        })
      }),
    ).toEqual([
      {
        kind: 'card.authorization.reversed',
        payload: {
          card_id: card.id,
          transaction_id: reversal!.id,
          amount: '1.00',
          currency: 'EUR',
          merchant_name: 'Corner Shop',
        },
      },
    ])
  })

  it('order.created when an order is placed, order.completed when an exchange completes, with its total and fee; order.failed (with the reason and whom it was for) when a withdrawal fails', async () => {
    const user = await orderUser(app)
    const userId = (
      await app.db
        .selectFrom('wallets')
        .select('user_id')
        .where('id', '=', user.walletId)
        .executeTakeFirstOrThrow()
    ).user_id
    await fund(app.db, user.walletId, CUR.USDT_TRON, '1000')
    // What the file's sign-ups left due (newcomers.ts' contact jobs) first: the runs below are the orders'.
    await drain(app)
    const exchange = await quote(app, user, {
      order_type: 'EXCHANGE_CRYPTO_INTERNAL',
      from_uuid: CUR.USDT_TRON,
      to_uuid: CUR.EUR,
      amount_from: '500',
    })
    let orderId = ''
    // Placed, it is told (quietly: order.created is never pushed), and completed in the same
    // transaction (issue 29), told as the settling job told it.
    const placingExchange = await producedBy(app, userId, async () => {
      orderId = (await placed(app, user, exchange)).id
    })
    expect(placingExchange.slice(0, 1)).toEqual([
      {
        kind: 'order.created',
        payload: expect.objectContaining({
          order_id: orderId,
          type: 'EXCHANGE_CRYPTO_INTERNAL',
          status: 'NEW',
          total_amount: exchange.total,
          deposit_reference: null,
        }),
      },
    ])
    const completed = placingExchange.slice(1)
    expect(await producedBy(app, userId, () => app.jobs.runDue({ now: new Date() }))).toEqual([])
    expect((await getOrder(app, user, orderId)).status).toBe('COMPLETE')
    // The centre keeps the outcome, not the placing the person just did (a quiet kind).
    await drain(app)
    const centre = await app.db
      .selectFrom('notifications as n')
      .innerJoin('events as e', 'e.id', 'n.event_id')
      .select('e.kind')
      .where('n.user_id', '=', userId)
      .execute()
    expect(centre.flatMap(({ kind }) => (kind.startsWith('order.') ? [kind] : []))).toEqual([
      'order.completed',
    ])
    expect(completed).toEqual([
      {
        kind: 'order.completed',
        payload: expect.objectContaining({
          order_id: orderId,
          wallet_id: user.walletId,
          type: 'EXCHANGE_CRYPTO_INTERNAL',
          from_currency: 'USDT',
          to_currency: 'EUR',
          total_amount: exchange.total,
          fee_amount: expect.stringMatching(/^\d+\.\d+$/),
          counterparty_name: null,
          card_last4: null,
        }),
      },
    ])

    const withdrawal = await quote(app, user, {
      order_type: 'WITHDRAWAL_CRYPTO',
      from_uuid: CUR.USDT_TRON,
      address: SANCTIONED_ADDRESSES.tron[0]!,
      amount_from: '40',
    })
    const placing = await producedBy(app, userId, async () => {
      orderId = (await placed(app, user, withdrawal)).id
    })
    expect(placing.map((event) => event.kind)).toEqual(['order.created'])
    const failing = await producedBy(app, userId, () => app.jobs.runDue({ now: new Date() }))
    expect((await getOrder(app, user, orderId)).status).toBe('FAILED')
    expect(failing).toEqual([
      {
        kind: 'order.failed',
        // Whom it was for, as the feed names it: the address paid.
        payload: expect.objectContaining({
          order_id: orderId,
          reason: 'ADDRESS_REJECTED',
          address: SANCTIONED_ADDRESSES.tron[0]!,
        }),
      },
    ])
  })
})

describeServer('events: a bank deposit names its sender', () => {
  let app: FastifyInstance
  beforeAll(async () => {
    app = await createTestApp(DISPATCH)
  })
  afterAll(() => app?.close())

  it('order.completed of a bank deposit carries who sent the money', async () => {
    const user = await orderUser(app)
    const deposit = await placed(
      app,
      user,
      await quote(app, user, {
        order_type: 'DEPOSIT_FIAT_SEPA',
        from_uuid: CUR.EUR,
        amount_from: '200.00',
      }),
    )
    const arrived = await bankTransfer(app, {
      reference: deposit.deposit_instructions!.reference,
      amount: deposit.total,
      currency: 'EUR',
      sender_name: 'Max Mustermann',
    })
    expect(arrived.statusCode, arrived.body).toBe(201)
    const [event] = await app.db
      .selectFrom('events')
      .select(['kind', 'payload'])
      .where('kind', '=', 'order.completed')
      .where(sql<boolean>`payload->>'order_id' = ${deposit.id}`)
      .execute()
    expect(event?.payload).toMatchObject({
      type: 'DEPOSIT_FIAT_SEPA',
      counterparty_name: 'Max Mustermann',
    })
  })
})
