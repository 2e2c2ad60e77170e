import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ActivityPage, ActivityType } from '../../../contract/activity.ts'
import type { Merchant } from '../../../contract/card-transactions.ts'
import type { Card } from '../../../contract/cards.ts'
import type { TransactionList } from '../../../contract/wallets.ts'
import {
  bearer,
  createTenant,
  createTestApp,
  createWallet,
  describeServer,
  expectProblem,
  headers,
  signUp,
} from '../../test-support.ts'
import { cardCalls, ok, PREPAID, testCardKeys } from '../cards/card-test-support.ts'
import {
  CUR,
  feeSum,
  fund,
  IBAN,
  insertDestination,
  type OrderUser,
  orderUser,
  place,
  placed,
  plus,
  quote,
  walletAddress,
} from '../orders/order-fixtures.ts'
import { activityCalls } from './activity-test-support.ts'

const BANK_MS = 2_000
const BLOCK_MS = 1_000

const SHOP: Merchant = { name: 'Corner Shop', mcc: '5411', city: 'Lisbon', country: 'PT' }

describeServer('the activity feed: one item per thing that happened', () => {
  let app: FastifyInstance
  const keys = testCardKeys()
  beforeAll(async () => {
    app = await createTestApp({
      ...keys.env,
      SANDBOX_BANK_MS: String(BANK_MS),
      SANDBOX_BLOCK_MS: String(BLOCK_MS),
      SANDBOX_MAX_CONFIRMATIONS: '3',
    })
  })
  afterAll(() => app?.close())

  const { fundedCard, call } = cardCalls(() => app)

  const { get, feed, everything, detail, network, deposit } = activityCalls(() => app)

  const only = async (user: OrderUser, type: ActivityType) => {
    const items = await everything(user.token)
    expect(items.map((item) => item.type)).toEqual([type])
    return items[0]!
  }

  /** USDT on Tron into BTC, 100 paid unless `extra` says otherwise. */
  const exchangeQuote = (user: OrderUser, extra: Record<string, string> = {}) =>
    quote(app, user, {
      order_type: 'EXCHANGE_CRYPTO_INTERNAL',
      from_uuid: CUR.USDT_TRON,
      to_uuid: CUR.BTC,
      amount_from: '100',
      ...extra,
    })

  /** A SEPA payout of `amount` euros to Anna Schmidt, a counterparty saved for it. */
  async function sepaQuote(user: OrderUser, amount: string) {
    const destination = await insertDestination(app.db, user.walletId, {
      type: 'SEPA',
      iban: IBAN.OK,
    })
    return quote(app, user, {
      order_type: 'WITHDRAWAL_FIAT_SEPA',
      from_uuid: CUR.EUR,
      destination_id: destination,
      amount_from: amount,
    })
  }

  async function records(user: OrderUser, walletId = user.walletId) {
    const list = ok<TransactionList>(
      await get(user.token, `/wallets/${walletId}/transactions?limit=100`),
    )
    return list.data
  }

  /** Runs the job queue at `now` and keeps running what it rescheduled up to `until`. */
  async function runJobs(from: Date, steps: number, stepMs: number) {
    for (let step = 0; step <= steps; step++) {
      await app.jobs.runDue({ now: new Date(from.getTime() + step * stepMs) })
    }
  }

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

  /** A quote for 50 USDT from a funded person's wallet into another person's, by its address. */
  async function transferBetweenPeople() {
    const sender = await orderUser(app)
    const receiver = await orderUser(app)
    await fund(app.db, sender.walletId, CUR.USDT_TRON, '80')
    const address = await walletAddress(app, receiver, 'tron')
    const q = await quote(app, sender, {
      order_type: 'WITHDRAWAL_CRYPTO',
      from_uuid: CUR.USDT_TRON,
      address,
      amount_from: '50',
    })
    return { sender, receiver, address, q }
  }

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

  describe('paging', () => {
    /** A new person with `count` crypto deposits, oldest first. */
    async function depositor(count: number) {
      const user = await orderUser(app)
      await walletAddress(app, user, 'tron')
      const more = () => deposit(user.walletId)
      for (let n = 0; n < count; n++) await more()
      return { user, deposit: more }
    }

    it('walks the feed by cursor: newest first, while new items arrive none repeats or is skipped', async () => {
      const { user, deposit } = await depositor(11)
      const before = (await everything(user.token)).map((item) => item.id)
      expect(before).toHaveLength(11)

      const seen: string[] = []
      let cursor: string | null = null
      let pages = 0
      do {
        const page: ActivityPage = await feed(user.token, {
          limit: '3',
          ...(cursor && { cursor }),
        })
        expect(page.limit).toBe(3)
        expect(page.data.length).toBeLessThanOrEqual(3)
        seen.push(...page.data.map((item) => item.id))
        cursor = page.next_cursor
        pages++
        // Two new items between every two pages: they are newer than the first page.
        await deposit()
        await deposit()
      } while (cursor)
      expect(pages).toBe(4)
      expect(seen).toEqual(before)

      // Read from the top again, the new ones lead.
      const after = await everything(user.token)
      expect(after).toHaveLength(11 + 8)
      expect(after.slice(8).map((item) => item.id)).toEqual(before)
      const times = after.map((item) => item.created_at)
      expect([...times].sort().reverse()).toEqual(times)
    })

    it('items of one instant are ordered by id and never split or repeated across pages', async () => {
      const { user } = await depositor(7)
      const ids = (await everything(user.token)).map((item) => item.id)
      // All seven at one microsecond: only the id orders them now.
      await app.db
        .updateTable('activities')
        .set({ created_at: new Date('2025-03-01T12:00:00.000Z') })
        .where('id', 'in', ids)
        .execute()
      for (const size of [1, 2, 3, 6, 7]) {
        const seen: string[] = []
        let cursor: string | null = null
        do {
          const page: ActivityPage = await feed(user.token, {
            limit: String(size),
            ...(cursor && { cursor }),
          })
          seen.push(...page.data.map((item) => item.id))
          cursor = page.next_cursor
        } while (cursor)
        expect(seen, `page size ${size}`).toEqual([...ids].sort().reverse())
      }
    })

    it('a cursor that the API did not make is 422 on the cursor; limit is bounded', async () => {
      const user = await orderUser(app)
      for (const cursor of ['nope!', Buffer.from('2025|x').toString('base64url'), 'AAAA']) {
        const problem = expectProblem(
          await get(user.token, `/activity?cursor=${cursor}`),
          422,
          'VALIDATION_FAILED',
        )
        expect(problem.errors?.[0]?.field).toBe('/querystring/cursor')
      }
      expectProblem(await get(user.token, '/activity?limit=101'), 422, 'VALIDATION_FAILED')
      expect(await feed(user.token)).toEqual({ data: [], limit: 20, next_cursor: null })
    })

    it('the last page says so: next_cursor null when nothing follows', async () => {
      const { user } = await depositor(4)
      const page = await feed(user.token, { limit: '4' })
      expect(page.data).toHaveLength(4)
      expect(page.next_cursor).toBeNull()
      const first = await feed(user.token, { limit: '3' })
      expect(first.next_cursor).not.toBeNull()
    })
  })

  describe('filters', () => {
    it('narrows by type, by currency code in any case (paid or received) and by words', async () => {
      const user = await orderUser(app)
      await fund(app.db, user.walletId, CUR.USDT_TRON, '500')
      await fund(app.db, user.walletId, CUR.EUR, '500.00')
      await placed(app, user, await exchangeQuote(user))
      await placed(app, user, await sepaQuote(user, '10.00'))

      const types = async (query: Record<string, string>) =>
        (await everything(user.token, query)).map((item) => item.type)
      expect(await types({})).toEqual(['send', 'exchange'])
      expect(await types({ type: 'exchange' })).toEqual(['exchange'])
      expect(await types({ currency: 'btc' })).toEqual(['exchange'])
      expect(await types({ currency: 'USDT' })).toEqual(['exchange'])
      expect(await types({ currency: 'eur' })).toEqual(['send'])
      expect(await types({ currency: 'GBP' })).toEqual([])
      expect(await types({ q: 'schmidt' })).toEqual(['send'])
      expect(await types({ q: 'ANNA' })).toEqual(['send'])
      expect(await types({ q: 'btc' })).toEqual(['exchange'])
      // A typed % or _ matches only itself.
      expect(await types({ q: '%' })).toEqual([])
      expect(await types({ q: '_' })).toEqual([])
      expectProblem(await get(user.token, '/activity?type=purchase'), 422, 'VALIDATION_FAILED')
    })
  })

  describe('whose items', () => {
    it('another person’s items never appear, and their wallet, card or item is 404', async () => {
      const owner = await fundedCard(10_000n)
      const ownerUser = { token: owner.token, walletId: owner.wallet.uuid }
      await fund(app.db, ownerUser.walletId, CUR.USDT_TRON, '50')
      await network(owner.card.id, { type: 'AUTHORIZATION', amount: '5.00', merchant: SHOP })
      const mine = await everything(owner.token)
      expect(mine.length).toBeGreaterThan(0)

      const stranger = await orderUser(app)
      const theirs = await everything(stranger.token)
      const ids = new Set(mine.map((item) => item.id))
      expect(theirs.filter((item) => ids.has(item.id))).toEqual([])
      expectProblem(
        await get(stranger.token, `/activity?wallet_uuid=${owner.wallet.uuid}`),
        404,
        'WALLET_NOT_FOUND',
      )
      expectProblem(
        await get(stranger.token, `/activity?card_id=${owner.card.id}`),
        404,
        'CARD_NOT_FOUND',
      )
      expectProblem(
        await get(stranger.token, `/activity?fiat_account_id=${owner.card.fiat_account.id}`),
        404,
        'FIAT_ACCOUNT_NOT_FOUND',
      )
      for (const item of mine) {
        expectProblem(await get(stranger.token, `/activity/${item.id}`), 404, 'ACTIVITY_NOT_FOUND')
      }
    })

    it('another tenant’s people never see this tenant’s items, nor it theirs', async () => {
      const tenant = await createTenant(app)
      const on = headers({ 'x-tenant-id': tenant })
      const pair = await signUp(app, { headers: on })
      const wallet = ok<{ uuid: string }>(
        await app.inject({
          method: 'POST',
          url: '/api/v2/wallets',
          headers: { ...on, ...bearer(pair.access_token) },
          payload: { type: 'personal' },
        }),
        201,
      )
      await app.inject({
        method: 'POST',
        url: `/api/v2/wallets/${wallet.uuid}/addresses/tron`,
        headers: { ...on, ...bearer(pair.access_token) },
        payload: {},
      })
      await deposit(wallet.uuid, '3', { 'x-tenant-id': tenant })
      const theirs = (await feed(pair.access_token, {}, on)).data
      expect(theirs.map((item) => item.type)).toEqual(['deposit'])

      const here = await orderUser(app)
      const ours = await everything(here.token)
      expect(ours.some((item) => item.id === theirs[0]!.id)).toBe(false)
      expectProblem(await get(here.token, `/activity/${theirs[0]!.id}`), 404, 'ACTIVITY_NOT_FOUND')
      // Their token under this tenant's header is no session here.
      expect((await get(pair.access_token, '/activity')).statusCode).toBe(401)
      // And the item really is theirs: the database holds it under their tenant.
      const row = await app.db
        .selectFrom('activities')
        .select('tenant_id')
        .where('id', '=', theirs[0]!.id)
        .executeTakeFirstOrThrow()
      expect(row.tenant_id).toBe(tenant)
    })
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
