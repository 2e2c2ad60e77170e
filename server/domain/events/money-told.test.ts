import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, expect, it } from 'vitest'
import type { Merchant } from '../../../contract/card-transactions.ts'
import { DEMO_TENANT_ID } from '../../../contract/tenancy.ts'
import type { WalletTransaction } from '../../../contract/wallets.ts'
import { SANCTIONED_ADDRESSES } from '../../providers/chain/sandbox-payouts.ts'
import { createFiatAccount, createTestApp, describeServer } from '../../test-support.ts'
import { cardCalls, EUR_BALANCE, ledgerAccountOf } from '../cards/card-test-support.ts'
import { credit, EUR } from '../ledger/ledger-test-support.ts'
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
import {
  entryTx,
  eventCount,
  eventsOf,
  networkMessage,
  recordTx,
} from './money-told-test-support.ts'

/*
 * Issue 28: every money movement is a money command — its ledger entry and
 * its event(s) commit in ONE transaction (the same xmin on both rows), or
 * neither does.
 */

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

  const cards = cardCalls(() => app)
  const SHOP: Merchant = { name: 'Corner Shop', mcc: '5411', city: 'Lisbon', country: 'PT' }
  const network = (body: Record<string, unknown>) => networkMessage(app, body)
  const authorize = (cardId: string, amount: string) =>
    network({ card_id: cardId, type: 'AUTHORIZATION', amount, merchant: SHOP })

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
    const before = await eventCount(app, 'order.created')
    const refused = await place(app, poor, 'EXCHANGE_CRYPTO_INTERNAL', { quote_id: firm.quote_id })
    expect(refused.statusCode, refused.body).toBe(422)
    expect(refused.json()).toMatchObject({ code: 'INSUFFICIENT_FUNDS' })
    expect(await eventCount(app, 'order.created')).toBe(before)
    expect(
      await app.db
        .selectFrom('orders')
        .select('id')
        .where('quote_id', '=', firm.quote_id)
        .execute(),
    ).toEqual([])
  })

  it('a card issued on an account: card.issued and card.fee.charged with its issue fee', async () => {
    const { token, wallet } = await cards.person()
    const account = await createFiatAccount(app, token, wallet.uuid, EUR_BALANCE)
    await credit(app.db, DEMO_TENANT_ID, await ledgerAccountOf(app, account.id), EUR, 2_000n)
    const card = await cards.onAccount(token, account.id)
    const fee = await entryTx(app, `card:${card.id}:fee:issue`)
    expect(fee).toBeDefined()
    expect(await eventsOf(app, 'card_id', card.id)).toEqual([
      { kind: 'card.issued', tx: fee },
      { kind: 'card.fee.charged', tx: fee },
    ])
  })

  it('card payments: each network message tells with its entry (hold, clearing, refund, reversal)', async () => {
    const { card } = await cards.fundedCard(50_000n)
    const paid = await authorize(card.id, '30.00')
    // The hold is posted under a savepoint (the ledger's guard refusing it is a decline, never a
    // 500): its rows carry the savepoint's own id, so the event is matched with the record,
    // written after the savepoint is released into the message's transaction.
    const hold = await entryTx(app, `card_tx:${paid.id}:hold`)
    expect(hold).toBeDefined()
    expect(await eventsOf(app, 'transaction_id', paid.id)).toEqual([
      { kind: 'card.authorization.approved', tx: await recordTx(app, paid.id) },
    ])
    const declined = await authorize(card.id, '900.00')
    expect(declined.status).toBe('DECLINED')
    expect(await eventsOf(app, 'transaction_id', declined.id)).toEqual([
      { kind: 'card.authorization.declined', tx: await recordTx(app, declined.id) },
    ])
    const cleared = await network({
      card_id: card.id,
      type: 'CLEARING',
      amount: '25.00',
      authorization_id: paid.id,
    })
    expect(await eventsOf(app, 'transaction_id', cleared.id)).toEqual([
      { kind: 'card.transaction.settled', tx: await entryTx(app, `card_tx:${paid.id}:clear`) },
    ])
    const refund = await network({
      card_id: card.id,
      type: 'REFUND',
      amount: '5.00',
      authorization_id: paid.id,
    })
    expect(await eventsOf(app, 'transaction_id', refund.id)).toEqual([
      { kind: 'card.transaction.refunded', tx: await entryTx(app, `card_tx:${refund.id}:refund`) },
    ])
    // A reversal releases the hold: money to spend again, told since issue 28.
    const held = await authorize(card.id, '12.00')
    const reversal = await network({
      card_id: card.id,
      type: 'REVERSAL',
      amount: '12.00',
      authorization_id: held.id,
    })
    expect(await eventsOf(app, 'transaction_id', reversal.id)).toEqual([
      { kind: 'card.authorization.reversed', tx: await entryTx(app, `card_tx:${held.id}:reverse`) },
    ])
  })

  it('a card command refused after it wrote its event rolls the event back with it', async () => {
    // The issue fee is charged after the card and its card.issued event: 4.99 cannot pay 5.00.
    const { token, wallet } = await cards.person()
    const poor = await createFiatAccount(app, token, wallet.uuid, EUR_BALANCE)
    await credit(app.db, DEMO_TENANT_ID, await ledgerAccountOf(app, poor.id), EUR, 499n)
    const issued = await eventCount(app, 'card.issued')
    const refused = await cards.call(token, 'POST', '/issuing/cards/balance', {
      fiat_account_id: poor.id,
      form_factor: 'VIRTUAL',
    })
    expect(refused.statusCode, refused.body).toBe(422)
    expect(await eventCount(app, 'card.issued')).toBe(issued)
  })
})
