import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, expect, it } from 'vitest'
import type { TransactionList } from '../../../contract/wallets.ts'
import { describeServer, headers } from '../../test-support.ts'
import { ok } from '../cards/card-test-support.ts'
import { CUR, IBAN, orderUser, placed, quote, walletAddress } from '../orders/order-fixtures.ts'
import { BLOCK_MS, feedCalls, feedTestApp, SHOP } from './activity-test-support.ts'

describeServer('the activity feed: a deposit or a card’s money is one item', () => {
  let app: FastifyInstance
  beforeAll(async () => {
    app = await feedTestApp()
  })
  afterAll(() => app?.close())

  const { get, everything, detail, network, deposit, fundedCard, only, runJobs } = feedCalls(
    () => app,
  )

  it('a crypto deposit is one item: pending while it confirms, complete at its confirmations', async () => {
    const user = await orderUser(app)
    const address = await walletAddress(app, user, 'tron')
    const record = await deposit(user.walletId, '75.5')
    const first = await only(user, 'deposit')
    expect(record).toMatchObject({ activity_id: first.id, activity_type: 'deposit' })
    expect(first).toMatchObject({
      status: 'pending',
      direction: 'in',
      address,
      tx_hash: record.tx_hash,
      confirmations: 0,
      amount: { currency: 'USDT', amount: '75.500000' },
      total: { amount: '75.500000' },
      source: { type: 'wallet_transaction', id: record.uuid, order_type: null },
    })

    const t0 = new Date()
    await app.jobs.runDue({ now: t0 })
    expect(await only(user, 'deposit')).toMatchObject({
      status: 'pending',
      confirmations: 0,
      required_confirmations: 3,
    })
    await runJobs(new Date(t0.getTime() + BLOCK_MS), 3, BLOCK_MS)
    const item = await only(user, 'deposit')
    expect(item).toMatchObject({ status: 'complete', confirmations: 3, required_confirmations: 3 })
    expect(item.id).toBe(first.id)
    const shown = await detail(user.token, item.id)
    expect(shown.timeline.map((event) => [event.status, event.code])).toEqual([
      ['pending', 'DETECTED'],
      ['complete', 'CONFIRMED'],
    ])
    expect(shown.records).toEqual([
      expect.objectContaining({ uuid: record.uuid, status: 'complete', tx_hash: record.tx_hash }),
    ])
  })

  it('a bank deposit is one item: what was credited, the fee taken from the transfer, the sender', async () => {
    const user = await orderUser(app)
    const q = await quote(app, user, {
      order_type: 'DEPOSIT_FIAT_SWIFT',
      from_uuid: CUR.EUR,
      amount_from: '300.00',
    })
    const order = await placed(app, user, q)
    const reference = order.deposit_instructions!.reference
    const arrived = await app.inject({
      method: 'POST',
      url: '/api/sandbox/bank-transfers',
      headers: { 'content-type': 'application/json' },
      payload: {
        reference,
        amount: q.total,
        currency: 'EUR',
        sender_name: 'Max Mustermann',
        sender_iban: IBAN.OK,
      },
    })
    expect(arrived.statusCode, arrived.body).toBe(201)
    expect(await only(user, 'deposit')).toMatchObject({
      status: 'complete',
      direction: 'in',
      amount: { amount: '300.00', currency: 'EUR' },
      fee: { amount: '10.00' },
      total: { amount: '300.00' },
      reference,
      counterparty_name: 'Max Mustermann',
      address: IBAN.OK,
    })
  })

  it('a card purchase is one item from authorisation to settlement, a part clearing and a refund folded in', async () => {
    const { token, card } = await fundedCard(50_000n)
    const pay = (body: Record<string, unknown>) => network(card.id, body)
    const purchases = () => everything(token, { type: 'card_purchase' })

    const auth = await pay({ type: 'AUTHORIZATION', amount: '50.00', merchant: SHOP })
    const [authorized] = await purchases()
    expect(await purchases()).toHaveLength(1)
    expect(authorized).toMatchObject({
      type: 'card_purchase',
      status: 'pending',
      direction: 'out',
      card_id: card.id,
      card_last4: card.last4,
      fiat_account_id: card.fiat_account.id,
      merchant: SHOP,
      amount: { amount: '50.00', currency: 'EUR' },
      total: { amount: '50.00' },
      refunded: null,
      source: { type: 'card_transaction', id: auth.id },
    })
    expect(auth.activity_id).toBe(authorized!.id)

    const clearing = await pay({
      type: 'CLEARING',
      amount: '40.00',
      authorization_id: auth.id,
    })
    const refund = await pay({ type: 'REFUND', amount: '15.00', authorization_id: auth.id })
    const items = await purchases()
    expect(items).toHaveLength(1)
    expect(items[0]).toMatchObject({
      id: authorized!.id,
      status: 'complete',
      amount: { amount: '40.00' },
      refunded: { amount: '15.00', currency: 'EUR' },
      total: { amount: '25.00' },
    })
    const shown = await detail(token, authorized!.id)
    expect(shown.timeline.map((event) => [event.code, event.amount?.amount ?? null])).toEqual([
      ['AUTHORIZED', null],
      ['CLEARED', '40.00'],
      ['REFUNDED', '15.00'],
    ])
    expect(shown.card_transactions.map((t) => t.id)).toEqual([auth.id, clearing.id, refund.id])
    expect(shown.card_transactions.every((t) => t.activity_id === authorized!.id)).toBe(true)

    // The rest refunded: the purchase reads refunded, and moved nothing in the end.
    await pay({ type: 'REFUND', amount: '25.00', authorization_id: auth.id })
    expect((await purchases())[0]).toMatchObject({ status: 'refunded', total: { amount: '0.00' } })

    // A reversal and a decline are one item each too; the card's feed holds the card's items.
    const second = await pay({ type: 'AUTHORIZATION', amount: '9.99', merchant: SHOP })
    await pay({ type: 'REVERSAL', amount: '9.99', authorization_id: second.id })
    await pay({ type: 'AUTHORIZATION', amount: '900.00', merchant: SHOP })
    const all = await purchases()
    expect(all.map((item) => [item.status, item.total.amount])).toEqual([
      ['declined', '0.00'],
      ['reversed', '0.00'],
      ['refunded', '0.00'],
    ])
    expect(all[0]!.failure_code).toBe('INSUFFICIENT_FUNDS')
    const onCard = await everything(token, { card_id: card.id })
    expect(onCard.filter((item) => item.type === 'card_purchase')).toHaveLength(3)
    expect(await everything(token, { fiat_account_id: card.fiat_account.id })).toEqual(
      expect.arrayContaining(all),
    )
  })

  it('closing a stand-alone card returns its balance as one item, its record under it', async () => {
    const { token, card, wallet } = await fundedCard(1_234n)
    const closed = await app.inject({
      method: 'DELETE',
      url: `/api/v1/issuing/cards/${card.id}`,
      headers: headers({ authorization: token }),
    })
    expect(closed.statusCode, closed.body).toBe(200)
    const [item] = await everything(token, { type: 'card_balance_return' })
    expect(item).toMatchObject({
      direction: 'in',
      status: 'complete',
      card_id: card.id,
      amount: { amount: '12.34', currency: 'EUR' },
    })
    const list = ok<TransactionList>(
      await get(token, `/wallets/${wallet.uuid}/transactions?record_type=CARD_PROVIDER_REFUND`),
    )
    expect(list.data).toEqual([
      expect.objectContaining({
        activity_id: item!.id,
        activity_type: 'card_balance_return',
        card_last4: card.last4,
      }),
    ])
  })
})
