import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, expect, it } from 'vitest'
import type { Card } from '../../../contract/cards.ts'
import { createWallet, describeServer, expectProblem, headers } from '../../test-support.ts'
import { ok, PREPAID } from '../cards/card-test-support.ts'
import {
  CUR,
  feeSum,
  fund,
  IBAN,
  orderUser,
  place,
  placed,
  plus,
  quote,
  walletAddress,
} from '../orders/order-fixtures.ts'
import { BANK_MS, feedCalls, feedTestApp } from './activity-test-support.ts'

describeServer('the activity feed: an exchange, a send or a transfer is one item', () => {
  let app: FastifyInstance
  beforeAll(async () => {
    app = await feedTestApp()
  })
  afterAll(() => app?.close())

  const {
    get,
    feed,
    everything,
    detail,
    call,
    only,
    exchangeQuote,
    sepaQuote,
    records,
    transferBetweenPeople,
  } = feedCalls(() => app)

  it('an exchange is one item: paid, received, fee and rate, its three records under it', async () => {
    const user = await orderUser(app)
    await fund(app.db, user.walletId, CUR.USDT_TRON, '500')
    const q = await exchangeQuote(user)
    const order = await placed(app, user, q)
    // Complete as it is placed (issue 29): no job to wait for.
    const item = await only(user, 'exchange')
    expect(item).toMatchObject({
      type: 'exchange',
      status: 'complete',
      direction: 'own',
      wallet_uuid: user.walletId,
      counter_wallet_uuid: null,
      amount: { currency: 'USDT', chain: 'tron', decimals: 6, amount: q.from.amount },
      fee: { currency: 'USDT', amount: feeSum(q) },
      total: { currency: 'USDT', amount: q.total },
      received: { currency: 'BTC', amount: q.to.amount, currency_uuid: CUR.BTC },
      rate: q.rate,
      source: { type: 'order', id: order.id, order_type: 'EXCHANGE_CRYPTO_INTERNAL' },
    })
    expect(plus(q.from.amount, feeSum(q), 6)).toBe(q.total)

    // The ledger's three lines (the amount, the fee, the proceeds) all say they are this item.
    const lines = await records(user)
    expect(lines).toHaveLength(3)
    for (const line of lines) {
      expect(line).toMatchObject({
        activity_id: item.id,
        activity_type: 'exchange',
        from_currency: 'USDT',
        to_currency: 'BTC',
        counterparty_name: null,
        merchant: null,
      })
    }
    const shown = await detail(user.token, item.id)
    expect(shown.timeline.map((event) => [event.status, event.code])).toEqual([
      ['pending', 'FUNDS_HELD'],
      ['complete', 'EXCHANGED'],
    ])
    expect(shown.records.map((record) => record.uuid).sort()).toEqual(
      lines.map((line) => line.uuid).sort(),
    )
    expect(shown.card_transactions).toEqual([])
  })

  it('an exchange into another of the person’s wallets shows in both wallets’ feeds', async () => {
    const user = await orderUser(app)
    const trading = await createWallet(app, user.token, 'trading')
    await fund(app.db, user.walletId, CUR.USDT_TRON, '200')
    const q = await exchangeQuote(user, {
      to_uuid: CUR.ETH,
      to_wallet_uuid: trading.uuid,
      amount_from: '50',
    })
    await placed(app, user, q)
    await app.jobs.runDue({ now: new Date() })
    const item = await only(user, 'exchange')
    expect(item.counter_wallet_uuid).toBe(trading.uuid)
    for (const wallet of [user.walletId, trading.uuid]) {
      expect((await everything(user.token, { wallet_uuid: wallet })).map((i) => i.id)).toEqual([
        item.id,
      ])
    }
    const other = await createWallet(app, user.token, 'vault')
    expect(await everything(user.token, { wallet_uuid: other.uuid })).toEqual([])
  })

  it('a SEPA send with a fee is one item: payee, amount, fee, total, status from pending to complete', async () => {
    const user = await orderUser(app)
    await fund(app.db, user.walletId, CUR.EUR, '500.00')
    const q = await sepaQuote(user, '120.00')
    expect(feeSum(q)).toBe('1.00')
    const order = await placed(app, user, q)
    const expected = {
      type: 'send',
      direction: 'out',
      counterparty_name: 'Anna Schmidt',
      address: IBAN.OK,
      amount: { currency: 'EUR', chain: null, decimals: 2, amount: '120.00' },
      fee: { currency: 'EUR', amount: '1.00' },
      total: { currency: 'EUR', amount: '121.00' },
      received: null,
      rate: null,
      source: { type: 'order', id: order.id, order_type: 'WITHDRAWAL_FIAT_SEPA' },
    }
    expect(await only(user, 'send')).toMatchObject({ ...expected, status: 'pending' })

    const t0 = new Date()
    await app.jobs.runDue({ now: t0 })
    expect(await only(user, 'send')).toMatchObject({ status: 'pending' })
    await app.jobs.runDue({ now: new Date(t0.getTime() + BANK_MS) })
    const item = await only(user, 'send')
    expect(item).toMatchObject({ ...expected, status: 'complete' })

    const lines = await records(user)
    expect(lines.map((line) => line.record_type).sort()).toEqual(['FEE', 'WITHDRAWAL'])
    for (const line of lines) {
      expect(line).toMatchObject({
        activity_id: item.id,
        activity_type: 'send',
        counterparty_name: 'Anna Schmidt',
        from_currency: null,
        to_currency: null,
      })
    }
    const shown = await detail(user.token, item.id)
    expect(shown.timeline.map((event) => event.code)).toEqual([
      'FUNDS_HELD',
      'SENT_TO_BANK',
      'PAID_OUT',
    ])
  })

  it('an internal transfer is a send for the payer and a receive for the payee, one item each', async () => {
    const { sender, receiver, address, q } = await transferBetweenPeople()
    await placed(app, sender, q)
    // Nothing shows for the payee before the money has arrived.
    expect(await everything(receiver.token)).toEqual([])
    await app.jobs.runDue({ now: new Date() })

    const sent = await only(sender, 'send')
    const received = await only(receiver, 'receive')
    expect(sent).toMatchObject({ status: 'complete', address, total: { amount: q.total } })
    expect(received).toMatchObject({
      status: 'complete',
      direction: 'in',
      wallet_uuid: receiver.walletId,
      amount: { amount: q.to.amount, currency: 'USDT' },
    })
    expect((await records(receiver)).map((r) => r.activity_id)).toEqual([received.id])
    // Neither sees the other's item, nor its records.
    expectProblem(await get(receiver.token, `/activity/${sent.id}`), 404, 'ACTIVITY_NOT_FOUND')
    expect((await detail(receiver.token, received.id)).records).toHaveLength(1)
    expect((await detail(sender.token, sent.id)).records.map((r) => r.wallet_uuid)).toEqual([
      sender.walletId,
    ])
  })

  it('the note typed on a transfer is on both sides’ items, their detail and their search', async () => {
    const { sender, receiver, q } = await transferBetweenPeople()
    const response = await place(app, sender, q.order_type, {
      quote_id: q.quote_id,
      note: 'Rent for May',
    })
    expect(response.statusCode, response.body).toBe(201)
    await app.jobs.runDue({ now: new Date() })

    const sent = await only(sender, 'send')
    expect(sent.note).toBe('Rent for May')
    expect((await detail(sender.token, sent.id)).note).toBe('Rent for May')
    expect((await feed(sender.token, { q: 'RENT for' })).data.map((i) => i.id)).toEqual([sent.id])
    expect((await feed(sender.token, { q: 'rent for june' })).data).toEqual([])
    // The payee reads it too, as a bank payout's payee reads the reference on their statement.
    const received = await only(receiver, 'receive')
    expect(received.note).toBe('Rent for May')
    expect((await feed(receiver.token, { q: 'rent' })).data.map((i) => i.id)).toEqual([received.id])
  })

  it('a top-up onto a stand-alone card’s own account is that card’s: named by it, in its feed', async () => {
    const user = await orderUser(app)
    const card = ok<Card>(
      await call(user.token, 'POST', '/issuing/cards/create', {
        wallet_uuid: user.walletId,
        program_id: PREPAID,
        form_factor: 'VIRTUAL',
      }),
      201,
    )
    await fund(app.db, user.walletId, CUR.EUR, '300.00')
    const q = await quote(app, user, {
      order_type: 'TRANSFER_CARD_PREPAID',
      from_uuid: CUR.EUR,
      fiat_account_id: card.fiat_account.id,
      amount_from: '200.00',
    })
    await placed(app, user, q)
    const topUp = (await everything(user.token, { type: 'card_top_up' }))[0]!
    expect(topUp).toMatchObject({
      card_id: card.id,
      card_last4: card.last4,
      fiat_account_id: card.fiat_account.id,
      direction: 'own',
      amount: { amount: '200.00', currency: 'EUR' },
    })
    expect((await everything(user.token, { card_id: card.id })).map((i) => i.id)).toContain(
      topUp.id,
    )
  })

  it('between two of the person’s own wallets is one transfer item, in both wallets', async () => {
    const user = await orderUser(app)
    const second = await createWallet(app, user.token, 'trading')
    await fund(app.db, user.walletId, CUR.USDT_TRON, '80')
    const address = await walletAddress(app, { ...user, walletId: second.uuid }, 'tron')
    const q = await quote(app, user, {
      order_type: 'WITHDRAWAL_CRYPTO',
      from_uuid: CUR.USDT_TRON,
      address,
      amount_from: '30',
    })
    await placed(app, user, q)
    await app.jobs.runDue({ now: new Date() })
    const item = await only(user, 'transfer')
    expect(item).toMatchObject({
      direction: 'own',
      counter_wallet_uuid: second.uuid,
      received: { amount: q.to.amount },
    })
    expect((await records(user, second.uuid)).map((r) => r.activity_id)).toEqual([item.id])
  })

  it('the CSV keeps its columns and gains the activity’s at the end', async () => {
    const user = await orderUser(app)
    await fund(app.db, user.walletId, CUR.USDT_TRON, '500')
    await placed(app, user, await exchangeQuote(user))
    const item = await only(user, 'exchange')
    const csv = await app.inject({
      method: 'GET',
      url: `/api/v1/wallets/transactions/${user.walletId}/csv`,
      headers: headers({ authorization: user.token }),
    })
    const [header, ...rows] = csv.body.trimEnd().split('\r\n')
    expect(header).toBe(
      'uuid,created_at,type,method,record_type,status,currency,chain,amount,address,tx_hash,' +
        'confirmations,activity_id,activity_type,counterparty_name,merchant,from_currency,' +
        'to_currency,card_last4',
    )
    expect(rows).toHaveLength(3)
    for (const row of rows) expect(row.endsWith(`,${item.id},exchange,,,USDT,BTC,`)).toBe(true)
  })
})
