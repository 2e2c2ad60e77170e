import type { FastifyInstance } from 'fastify'
import { sql } from 'kysely'
import { afterAll, beforeAll, expect, it, vi } from 'vitest'
import type { Order, Quote } from '../../../contract/orders.ts'
import { DEMO_TENANT_ID } from '../../../contract/tenancy.ts'
import { SANCTIONED_ADDRESSES } from '../../providers/chain/sandbox-payouts.ts'
import {
  bearer,
  createTestApp,
  describeServer,
  expectProblem,
  headers,
} from '../../test-support.ts'
import { expectLedgerInvariants } from '../ledger/ledger-test-support.ts'
import {
  balances,
  bankTransfer,
  CUR,
  entriesOf,
  eventCodes,
  externalAddress,
  fund,
  getOrder,
  IBAN,
  insertDestination,
  insertFiatAccount,
  minus,
  type OrderUser,
  orderUser,
  place,
  placed,
  quote,
  recordsOf,
  statuses,
  v1,
} from './order-fixtures.ts'
import { insertDestination as insertDestinationOf } from './quote-test-support.ts'
import { MAX_ATTEMPTS } from './rules.ts'
import { stalledEvent } from './timeline-rules.ts'

const BANK_MS = 2_000

/** Every way an order does not complete, and what the person gets back. */
describeServer('orders that fail, expire, are refused or cancelled', () => {
  let app: FastifyInstance
  beforeAll(async () => {
    app = await createTestApp({ SANDBOX_BANK_MS: String(BANK_MS), SANDBOX_BLOCK_MS: '1000' })
  })
  afterAll(() => app?.close())

  const at = (base: Date, ms: number) => new Date(base.getTime() + ms)
  const cancel = (user: OrderUser, id: string) => v1(app, user, 'POST', `/orders/${id}/cancel`)
  const orderCount = async (walletId: string) =>
    (
      await app.db
        .selectFrom('orders')
        .select((eb) => eb.fn.countAll<string>().as('n'))
        .where('wallet_id', '=', walletId)
        .executeTakeFirstOrThrow()
    ).n

  async function sepaWithdrawal(iban: string, amount = '100.00') {
    const user = await orderUser(app)
    await fund(app.db, user.walletId, CUR.EUR, '300.00')
    const destination = await insertDestination(app.db, user.walletId, { type: 'SEPA', iban })
    const q = await quote(app, user, {
      order_type: 'WITHDRAWAL_FIAT_SEPA',
      from_uuid: CUR.EUR,
      destination_id: destination,
      amount_from: amount,
    })
    return { user, q, order: await placed(app, user, q) }
  }

  async function exchangeQuote(user: OrderUser, amount = '50'): Promise<Quote> {
    return quote(app, user, {
      order_type: 'EXCHANGE_CRYPTO_INTERNAL',
      from_uuid: CUR.USDT_TRON,
      to_uuid: CUR.EUR,
      amount_from: amount,
    })
  }

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
    expect(await orderCount(user.walletId)).toBe('0')
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
    expect(await orderCount(user.walletId)).toBe('0')
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

  it('a payout to a closed account comes back: FAILED ACCOUNT_CLOSED, the funds released', async () => {
    const { user, order } = await sepaWithdrawal(IBAN.CLOSED)
    const t0 = new Date()
    await app.jobs.runDue({ now: t0 })
    expect((await getOrder(app, user, order.id)).status).toBe('PENDING')
    await app.jobs.runDue({ now: at(t0, BANK_MS) })

    const failed = await getOrder(app, user, order.id)
    expect(failed).toMatchObject({ status: 'FAILED', failure_code: 'ACCOUNT_CLOSED' })
    expect(statuses(failed)).toEqual(['NEW', 'PENDING', 'FAILED'])
    expect(failed.timeline.map((event) => event.code)).toEqual([
      'FUNDS_HELD',
      'SENT_TO_BANK',
      'RETURNED_ACCOUNT_CLOSED',
    ])
    expect(failed.timeline[2]!.note).toMatch(/account is closed.*released/)
    expect(await balances(app.db, user.walletId, CUR.EUR)).toEqual({
      available: '300.00',
      held: '0.00',
    })
    expect((await recordsOf(app.db, order.id)).map((r) => r.status)).toEqual(['failed', 'failed'])
    expect(await entriesOf(app.db, order.id)).toEqual(['hold', 'release'])
    await expectLedgerInvariants(app)
  })

  it('a withdrawal to a sanctioned address is refused before broadcast: FAILED ADDRESS_REJECTED', async () => {
    const user = await orderUser(app)
    await fund(app.db, user.walletId, CUR.USDT_TRON, '100')
    const q = await quote(app, user, {
      order_type: 'WITHDRAWAL_CRYPTO',
      from_uuid: CUR.USDT_TRON,
      address: SANCTIONED_ADDRESSES.tron[0]!,
      amount_from: '40',
    })
    const order = await placed(app, user, q)
    await app.jobs.runDue({ now: new Date() })

    const failed = await getOrder(app, user, order.id)
    expect(failed).toMatchObject({
      status: 'FAILED',
      failure_code: 'ADDRESS_REJECTED',
      tx_hash: null,
    })
    expect(failed.timeline.map((event) => [event.status, event.code, event.note])).toEqual([
      ['NEW', 'FUNDS_HELD', expect.any(String)],
      [
        'FAILED',
        'ADDRESS_REJECTED',
        'Address rejected by the network; the held funds were released',
      ],
    ])
    expect(await balances(app.db, user.walletId, CUR.USDT_TRON)).toEqual({
      available: '100.000000',
      held: '0.000000',
    })
    expect((await recordsOf(app.db, order.id)).every((r) => r.status === 'failed')).toBe(true)
    await expectLedgerInvariants(app)
  })

  it('an expired quote is 422 QUOTE_EXPIRED and holds nothing', async () => {
    const user = await orderUser(app)
    await fund(app.db, user.walletId, CUR.USDT_TRON, '100')
    const q = await exchangeQuote(user)
    // Placed the moment it expires: the clock alone moves on, the token says when.
    vi.useFakeTimers({ toFake: ['Date'], now: Date.parse(q.expires_at) })
    const late = await place(app, user, q.order_type, { quote_id: q.quote_id }).finally(() =>
      vi.useRealTimers(),
    )
    const problem = expectProblem(late, 422, 'QUOTE_EXPIRED')
    expect(problem.detail).toBe(`The quote expired at ${q.expires_at}: get a new one.`)
    expect(problem.errors).toEqual([{ field: '/body/quote_id', message: expect.any(String) }])
    expect(await orderCount(user.walletId)).toBe('0')
    expect(await balances(app.db, user.walletId, CUR.USDT_TRON)).toEqual({
      available: '100.000000',
      held: '0.000000',
    })
  })

  it('not enough money is 422 INSUFFICIENT_FUNDS naming the currency, and leaves nothing behind', async () => {
    const user = await orderUser(app)
    await fund(app.db, user.walletId, CUR.USDT_TRON, '30')
    const q = await exchangeQuote(user, '50')
    const problem = expectProblem(
      await place(app, user, q.order_type, { quote_id: q.quote_id }),
      422,
      'INSUFFICIENT_FUNDS',
    )
    expect(problem.detail).toBe(
      `Not enough USDT: the order needs ${q.total} USDT, the wallet has 30.000000 USDT available.`,
    )
    expect(await orderCount(user.walletId)).toBe('0')
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
    const q = await exchangeQuote(user)
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
    expect(await orderCount(user.walletId)).toBe('0')
  })

  it('a quote places one order: another key for it is 409 QUOTE_USED', async () => {
    const user = await orderUser(app)
    await fund(app.db, user.walletId, CUR.USDT_TRON, '100')
    const q = await exchangeQuote(user)
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
    expect(await orderCount(user.walletId)).toBe('1')
    expect(await balances(app.db, user.walletId, CUR.USDT_TRON)).toEqual({
      available: minus('100.000000', q.total, 6),
      held: '0.000000',
    })
  })

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
    const response = await cancel(user, order.id)
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
    const again = expectProblem(await cancel(user, order.id), 409, 'ORDER_NOT_CANCELABLE')
    expect(again.order_status).toBe('CANCELED')
    await expectLedgerInvariants(app)
  })

  it('an order the rail has, or that is done, cannot be cancelled; another person’s is not found', async () => {
    const { user, order } = await sepaWithdrawal(IBAN.OK)
    const t0 = new Date()
    await app.jobs.runDue({ now: t0 })
    const pending = expectProblem(await cancel(user, order.id), 409, 'ORDER_NOT_CANCELABLE')
    expect(pending).toMatchObject({
      order_status: 'PENDING',
      detail: 'The order is PENDING and can no longer be canceled.',
    })
    await app.jobs.runDue({ now: at(t0, BANK_MS) })
    const complete = expectProblem(await cancel(user, order.id), 409, 'ORDER_NOT_CANCELABLE')
    expect(complete.order_status).toBe('COMPLETE')

    const stranger = await orderUser(app)
    expectProblem(await cancel(stranger, order.id), 404, 'ORDER_NOT_FOUND')
  })

  it('a deposit cancels while its transfer has not come; a transfer after that is refused', async () => {
    const user = await orderUser(app)
    const q = await quote(app, user, {
      order_type: 'DEPOSIT_FIAT_SEPA',
      from_uuid: CUR.EUR,
      amount_from: '40.00',
    })
    const order = await placed(app, user, q)
    const response = await cancel(user, order.id)
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
      expectProblem(await cancel(user, paid.id), 409, 'ORDER_NOT_CANCELABLE').order_status,
    ).toBe('COMPLETE')
  })

  it(`a bank that never answers the payout: after ${MAX_ATTEMPTS} tries still NEW and held, never released, asked again`, async () => {
    const { user, order } = await sepaWithdrawal(IBAN.UNREACHABLE)
    let now = new Date()
    for (let attempt = 1; attempt <= MAX_ATTEMPTS + 2; attempt++) {
      expect(await app.jobs.runDue({ now })).toMatchObject({ failed: 1 })
      now = at(now, 5 * 60_000)
    }
    // The call was made (submitted_at is set before it): the bank may have the payout.
    const waiting = await getOrder(app, user, order.id)
    expect(waiting).toMatchObject({ status: 'NEW', failure_code: null })
    expect(waiting.timeline.map((event) => [event.status, event.code, event.note])).toEqual([
      ['NEW', 'FUNDS_HELD', expect.any(String)],
      ['NEW', 'BANK_NOT_ANSWERING', stalledEvent('bank_out').note],
    ])
    expect(
      expectProblem(await cancel(user, order.id), 409, 'ORDER_NOT_CANCELABLE').order_status,
    ).toBe('NEW')
    expect(await balances(app.db, user.walletId, CUR.EUR)).toEqual({
      available: '199.00',
      held: '101.00',
    })
    expect((await recordsOf(app.db, order.id)).every((r) => r.status === 'new')).toBe(true)
    expect(await entriesOf(app.db, order.id)).toEqual(['hold'])
    // Its job is not finished: it comes round again.
    expect(await app.jobs.runDue({ now })).toMatchObject({ failed: 1 })
    await expectLedgerInvariants(app)
    // The sandbox bank never answers it, so its job would run for ever: out of later tests' way.
    await app.db.deleteFrom('jobs').where(sql`payload->>'order_id'`, '=', order.id).execute()
  })

  it(`a payout that cannot even be prepared is given up after ${MAX_ATTEMPTS} tries, before the bank has it: ERROR, funds released`, async () => {
    const { user, order } = await sepaWithdrawal(IBAN.OK)
    // Whatever breaks before the hand-off; here, a payee the job cannot read.
    await app.db.updateTable('orders').set({ payee: null }).where('id', '=', order.id).execute()
    let now = new Date()
    for (let attempt = 1; attempt < MAX_ATTEMPTS; attempt++) {
      expect(await app.jobs.runDue({ now })).toMatchObject({ failed: 1 })
      expect((await getOrder(app, user, order.id)).status).toBe('NEW')
      now = at(now, 60_000)
    }
    expect(await app.jobs.runDue({ now })).toMatchObject({ done: 1, failed: 0 })

    const errored = await getOrder(app, user, order.id)
    expect(errored).toMatchObject({ status: 'ERROR', failure_code: 'PROCESSING_FAILED' })
    expect(errored.timeline.map((event) => [event.status, event.code, event.note])).toEqual([
      ['NEW', 'FUNDS_HELD', expect.any(String)],
      ['ERROR', 'PROCESSING_FAILED', 'Processing failed; the held funds were released'],
    ])
    const row = await app.db
      .selectFrom('orders')
      .select('submitted_at')
      .where('id', '=', order.id)
      .executeTakeFirstOrThrow()
    expect(row.submitted_at).toBeNull()
    expect(await balances(app.db, user.walletId, CUR.EUR)).toEqual({
      available: '300.00',
      held: '0.00',
    })
    expect((await recordsOf(app.db, order.id)).every((r) => r.status === 'failed')).toBe(true)
    expect(await entriesOf(app.db, order.id)).toEqual(['hold', 'release'])
    // The job is finished: nothing runs again.
    expect(await app.jobs.runDue({ now: at(now, 3_600_000) })).toMatchObject({ done: 0, failed: 0 })
    await expectLedgerInvariants(app)
  })

  it('a fiat account blocked after the quote: the top-up FAILS and the funds come back', async () => {
    const user = await orderUser(app)
    await fund(app.db, user.walletId, CUR.EUR, '100.00')
    const account = await insertFiatAccount(app.db, user.walletId, { subAccountType: 'prepaid' })
    const q = await quote(app, user, {
      order_type: 'TRANSFER_CARD_PREPAID',
      from_uuid: CUR.EUR,
      fiat_account_id: account.id,
      amount_from: '50.00',
    })
    const order = await placed(app, user, q)
    await app.db
      .updateTable('fiat_accounts')
      .set({ status: 'BLOCKED' })
      .where('id', '=', account.id)
      .execute()
    await app.jobs.runDue({ now: new Date() })

    const failed = await getOrder(app, user, order.id)
    expect(failed).toMatchObject({ status: 'FAILED', failure_code: 'FIAT_ACCOUNT_INACTIVE' })
    expect(eventCodes(failed)).toEqual(['FUNDS_HELD', 'FIAT_ACCOUNT_INACTIVE'])
    expect(await balances(app.db, user.walletId, CUR.EUR)).toEqual({
      available: '100.00',
      held: '0.00',
    })
    await expectLedgerInvariants(app)
  })

  it('a step run again (a runner died before finishing its job) does nothing twice', async () => {
    const user = await orderUser(app)
    await fund(app.db, user.walletId, CUR.USDT_TRON, '500')
    const q = await quote(app, user, {
      order_type: 'WITHDRAWAL_CRYPTO',
      from_uuid: CUR.USDT_TRON,
      address: externalAddress('tron'),
      amount_from: '100',
    })
    const order = await placed(app, user, q)
    const rerun = () =>
      sql`update jobs set done_at = null, run_at = now() - interval '1 hour'
          where payload->>'order_id' = ${order.id}`.execute(app.db)
    const t0 = new Date()
    await app.jobs.runDue({ now: t0 })
    const broadcast = await getOrder(app, user, order.id)
    // As if the lease had run out: the same step again, then every later one twice.
    await rerun()
    await app.jobs.runDue({ now: t0 })
    expect(await getOrder(app, user, order.id)).toMatchObject({
      status: 'PENDING',
      tx_hash: broadcast.tx_hash,
    })
    for (let block = 1; block <= 3; block++) {
      await app.jobs.runDue({ now: at(t0, block * 1_000) })
      await rerun()
      await app.jobs.runDue({ now: at(t0, block * 1_000) })
    }
    const done = await getOrder(app, user, order.id)
    expect(statuses(done)).toEqual(['NEW', 'PENDING', 'COMPLETE'])
    expect(await entriesOf(app.db, order.id)).toEqual(['hold', 'settle'])
    expect(await balances(app.db, user.walletId, CUR.USDT_TRON)).toEqual({
      available: minus('500.000000', q.total, 6),
      held: '0.000000',
    })
    await expectLedgerInvariants(app)
  })
})
