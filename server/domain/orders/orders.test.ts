import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, expect, it } from 'vitest'
import type { Order, OrderList, SandboxBankTransfer } from '../../../contract/orders.ts'
import { DEMO_TENANT_ID } from '../../../contract/tenancy.ts'
import { createTestApp, describeServer, expectProblem } from '../../test-support.ts'
import { expectLedgerInvariants } from '../ledger/ledger-test-support.ts'
import { systemAccount } from '../ledger/service.ts'
import {
  accountBalance,
  balances,
  bankTransfer,
  CUR,
  entriesOf,
  eventCodes,
  externalAddress,
  feeSum,
  fund,
  getOrder,
  IBAN,
  insertDestination,
  insertFiatAccount,
  minus,
  orderUser,
  placed,
  plus,
  quote,
  recordsOf,
  statuses,
  v1,
  walletAddress,
} from './order-fixtures.ts'
import { quoteHash } from './quote-token.ts'

const BANK_MS = 2_000
const BLOCK_MS = 1_000

/** Every order type from its quote to its final state: the money, the records, the timeline. */
describeServer('orders, from quote to final state', () => {
  let app: FastifyInstance
  beforeAll(async () => {
    app = await createTestApp({
      SANDBOX_BANK_MS: String(BANK_MS),
      SANDBOX_BLOCK_MS: String(BLOCK_MS),
      SANDBOX_MAX_CONFIRMATIONS: '3',
    })
  })
  afterAll(() => app?.close())

  const at = (base: Date, ms: number) => new Date(base.getTime() + ms)
  const system = (kind: 'external' | 'fees' | 'treasury') =>
    systemAccount(app.db, DEMO_TENANT_ID, kind)

  it('DEPOSIT_FIAT_SEPA: instructions with a reference, completed by the bank transfer', async () => {
    const user = await orderUser(app)
    const q = await quote(app, user, {
      order_type: 'DEPOSIT_FIAT_SEPA',
      from_uuid: CUR.EUR,
      amount_from: '250.00',
    })
    const order = await placed(app, user, q)
    expect(order).toMatchObject({
      order_type: 'DEPOSIT_FIAT_SEPA',
      status: 'PENDING',
      wallet_uuid: user.walletId,
      quote_id: q.quote_id,
      request_id: `quote:${quoteHash(q.quote_id)}`,
      total: q.total,
      deposit_instructions: {
        beneficiary: expect.any(String),
        iban: 'DE36100100100000000001',
        account_number: null,
        bic: 'SBXBDEB1XXX',
        bank_name: 'Sandbox Bank AG',
        amount: q.total,
        currency: 'EUR',
      },
    })
    const reference = order.deposit_instructions!.reference
    expect(reference).toMatch(/^FP-[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}$/)
    expect(statuses(order)).toEqual(['NEW', 'PENDING'])
    expect(order.timeline[1]!.note).toContain(reference)
    // Nothing is held for a deposit, and nothing has arrived.
    expect(await balances(app.db, user.walletId, CUR.EUR)).toEqual({
      available: '0.00',
      held: '0.00',
    })
    expect(await recordsOf(app.db, order.id)).toMatchObject([
      { type: 'deposit', method: 'bank_transfer', record_type: 'DEPOSIT', status: 'pending' },
    ])

    // The bank reports the transfer; the reference typed loosely, as people do.
    const loose = reference.toLowerCase().replaceAll('-', ' ')
    const response = await bankTransfer(app, { reference: loose, amount: q.total, currency: 'eur' })
    expect(response.statusCode, response.body).toBe(201)
    expect(response.json<SandboxBankTransfer>()).toMatchObject({
      reference,
      amount: q.total,
      currency: 'EUR',
      order_id: order.id,
    })
    const done = await getOrder(app, user, order.id)
    expect(done.status).toBe('COMPLETE')
    expect(statuses(done)).toEqual(['NEW', 'PENDING', 'COMPLETE'])
    expect(eventCodes(done)).toEqual(['PLACED', 'AWAITING_TRANSFER', 'TRANSFER_RECEIVED'])
    expect(await balances(app.db, user.walletId, CUR.EUR)).toEqual({
      available: q.to.amount,
      held: '0.00',
    })
    expect(await recordsOf(app.db, order.id)).toEqual([
      expect.objectContaining({
        record_type: 'DEPOSIT',
        status: 'complete',
        amount: `${q.total} EUR`,
      }),
      ...q.fees
        .filter((fee) => fee.amount !== '0.00')
        .map(() => expect.objectContaining({ record_type: 'FEE', type: 'withdrawal' })),
    ])
    expect(await entriesOf(app.db, order.id)).toEqual(['received'])

    // The same transfer again is refused: one transfer completes one order.
    const again = await bankTransfer(app, { reference, amount: q.total, currency: 'EUR' })
    expectProblem(again, 409, 'TRANSFER_ALREADY_RECEIVED')
    await expectLedgerInvariants(app)
  })

  it('DEPOSIT_FIAT_SWIFT: an account number and BIC; the fee comes off the transfer', async () => {
    const user = await orderUser(app)
    const q = await quote(app, user, {
      order_type: 'DEPOSIT_FIAT_SWIFT',
      from_uuid: CUR.USD,
      amount_from: '1000.00',
    })
    const order = await placed(app, user, q)
    expect(order.deposit_instructions).toMatchObject({
      iban: null,
      account_number: expect.stringMatching(/^\d+$/),
      bic: 'SBXBDEB1XXX',
      amount: q.total,
      currency: 'USD',
    })
    const fees = feeSum(q)
    expect(fees).not.toBe('0.00')
    const fees0 = await accountBalance(app.db, await system('fees'), CUR.USD)

    const reference = order.deposit_instructions!.reference
    const wrongAmount = await bankTransfer(app, { reference, amount: q.to.amount, currency: 'USD' })
    const problem = expectProblem(wrongAmount, 422, 'AMOUNT_MISMATCH')
    expect(problem.errors).toEqual([{ field: '/body/amount', message: expect.any(String) }])
    const wrongCurrency = await bankTransfer(app, { reference, amount: q.total, currency: 'EUR' })
    expect(expectProblem(wrongCurrency, 422, 'AMOUNT_MISMATCH').errors).toEqual([
      { field: '/body/currency', message: expect.any(String) },
    ])
    const unknown = await bankTransfer(app, {
      reference: 'FP-0000-0000',
      amount: q.total,
      currency: 'USD',
    })
    expect(expectProblem(unknown, 422, 'REFERENCE_UNKNOWN').errors).toEqual([
      { field: '/body/reference', message: expect.any(String) },
    ])
    expect((await getOrder(app, user, order.id)).status).toBe('PENDING')

    expect(
      (await bankTransfer(app, { reference, amount: q.total, currency: 'USD' })).statusCode,
    ).toBe(201)
    expect(await balances(app.db, user.walletId, CUR.USD)).toEqual({
      available: q.to.amount,
      held: '0.00',
    })
    expect(await accountBalance(app.db, await system('fees'), CUR.USD)).toBe(plus(fees0, fees, 2))
    const records = await recordsOf(app.db, order.id)
    expect(records).toEqual([
      expect.objectContaining({
        record_type: 'DEPOSIT',
        amount: `${q.total} USD`,
        status: 'complete',
      }),
      expect.objectContaining({ record_type: 'FEE', amount: `${fees} USD`, status: 'complete' }),
    ])
    await expectLedgerInvariants(app)
  })

  it('WITHDRAWAL_FIAT_SEPA: held, sent to the bank, paid out after SANDBOX_BANK_MS', async () => {
    const user = await orderUser(app)
    await fund(app.db, user.walletId, CUR.EUR, '500.00')
    const destination = await insertDestination(app.db, user.walletId, {
      type: 'SEPA',
      iban: IBAN.OK,
    })
    const q = await quote(app, user, {
      order_type: 'WITHDRAWAL_FIAT_SEPA',
      from_uuid: CUR.EUR,
      destination_id: destination,
      amount_from: '120.00',
    })
    const external0 = await accountBalance(app.db, await system('external'), CUR.EUR)
    const order = await placed(app, user, q)
    expect(order).toMatchObject({ status: 'NEW', deposit_instructions: null, failure_code: null })
    expect(await balances(app.db, user.walletId, CUR.EUR)).toEqual({
      available: minus('500.00', q.total, 2),
      held: q.total,
    })
    expect(await recordsOf(app.db, order.id)).toEqual([
      expect.objectContaining({
        record_type: 'FEE',
        type: 'withdrawal',
        method: 'bank_transfer',
        status: 'new',
      }),
      expect.objectContaining({
        record_type: 'WITHDRAWAL',
        type: 'withdrawal',
        method: 'bank_transfer',
        status: 'new',
        amount: '120.00 EUR',
      }),
    ])

    const t0 = new Date()
    await app.jobs.runDue({ now: t0 })
    expect((await getOrder(app, user, order.id)).status).toBe('PENDING')
    expect((await recordsOf(app.db, order.id)).map((r) => r.status)).toEqual(['pending', 'pending'])
    // The bank has not settled yet: nothing is due.
    expect(await app.jobs.runDue({ now: at(t0, BANK_MS - 1) })).toEqual({
      done: 0,
      rescheduled: 0,
      failed: 0,
    })
    await app.jobs.runDue({ now: at(t0, BANK_MS) })
    const done = await getOrder(app, user, order.id)
    expect(statuses(done)).toEqual(['NEW', 'PENDING', 'COMPLETE'])
    expect(done.timeline.map((event) => [event.code, event.note])).toEqual([
      ['FUNDS_HELD', 'Order placed; the funds are held'],
      ['SENT_TO_BANK', 'Sent to the bank'],
      ['PAID_OUT', 'Paid out by the bank'],
    ])
    expect(await balances(app.db, user.walletId, CUR.EUR)).toEqual({
      available: minus('500.00', q.total, 2),
      held: '0.00',
    })
    expect(await accountBalance(app.db, await system('external'), CUR.EUR)).toBe(
      plus(external0, '120.00', 2),
    )
    expect((await recordsOf(app.db, order.id)).map((r) => r.status)).toEqual([
      'complete',
      'complete',
    ])
    expect(await entriesOf(app.db, order.id)).toEqual(['hold', 'settle'])
    await expectLedgerInvariants(app)
  })

  it('WITHDRAWAL_CRYPTO to an address: broadcast with a hash, complete at the confirmations', async () => {
    const user = await orderUser(app)
    await fund(app.db, user.walletId, CUR.USDT_TRON, '300')
    const address = externalAddress('tron')
    const q = await quote(app, user, {
      order_type: 'WITHDRAWAL_CRYPTO',
      from_uuid: CUR.USDT_TRON,
      address,
      amount_from: '100',
    })
    expect(q.fees.some((fee) => fee.kind === 'NETWORK' && fee.amount !== '0.000000')).toBe(true)
    const order = await placed(app, user, q)
    // The whole address and its chain, not the shortened display.
    expect(order.target).toEqual(q.target)
    expect(order.target).toMatchObject({ kind: 'address', chain: 'tron', address })
    expect(await balances(app.db, user.walletId, CUR.USDT_TRON)).toEqual({
      available: minus('300.000000', q.total, 6),
      held: q.total,
    })

    const t0 = new Date()
    await app.jobs.runDue({ now: t0 })
    const pending = await getOrder(app, user, order.id)
    expect(pending.status).toBe('PENDING')
    expect(pending.tx_hash).toMatch(/^[0-9a-f]{64}$/)
    const main = async () =>
      (await recordsOf(app.db, order.id)).find(
        (record) => record.record_type === 'WITHDRAWAL_CRYPTO_EXTERNAL',
      )!
    expect(await main()).toMatchObject({
      status: 'pending',
      tx_hash: pending.tx_hash,
      confirmations: 0,
      address,
      amount: '100.000000 USDT',
    })
    await app.jobs.runDue({ now: at(t0, BLOCK_MS) })
    expect(await main()).toMatchObject({ status: 'pending', confirmations: 1 })
    await app.jobs.runDue({ now: at(t0, 2 * BLOCK_MS) })
    await app.jobs.runDue({ now: at(t0, 3 * BLOCK_MS) })
    expect(await main()).toMatchObject({ status: 'complete', confirmations: 3 })
    const done = await getOrder(app, user, order.id)
    expect(statuses(done)).toEqual(['NEW', 'PENDING', 'COMPLETE'])
    expect(eventCodes(done)).toEqual(['FUNDS_HELD', 'BROADCAST', 'CONFIRMED_ON_CHAIN'])
    expect(done.tx_hash).toBe(pending.tx_hash)
    expect(await balances(app.db, user.walletId, CUR.USDT_TRON)).toEqual({
      available: minus('300.000000', q.total, 6),
      held: '0.000000',
    })
    expect((await recordsOf(app.db, order.id)).map((r) => [r.record_type, r.status])).toEqual([
      ['NETWORK_FEE', 'complete'],
      ['WITHDRAWAL_CRYPTO_EXTERNAL', 'complete'],
    ])
    await expectLedgerInvariants(app)
  })

  it('WITHDRAWAL_CRYPTO to another wallet of the platform: delivered inside, in one step', async () => {
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
    expect(q.target.wallet_uuid).toBe(receiver.walletId)
    const order = await placed(app, sender, q)
    await app.jobs.runDue({ now: new Date() })

    const done = await getOrder(app, sender, order.id)
    expect(statuses(done)).toEqual(['NEW', 'COMPLETE'])
    expect(eventCodes(done)).toEqual(['FUNDS_HELD', 'DELIVERED_TO_WALLET'])
    expect(done.tx_hash).toBeNull()
    expect(await balances(app.db, sender.walletId, CUR.USDT_TRON)).toEqual({
      available: minus('80.000000', q.total, 6),
      held: '0.000000',
    })
    expect(await balances(app.db, receiver.walletId, CUR.USDT_TRON)).toEqual({
      available: q.to.amount,
      held: '0.000000',
    })
    const records = await recordsOf(app.db, order.id)
    expect(records.map((r) => [r.wallet, r.type, r.record_type, r.status])).toEqual([
      [receiver.walletId, 'deposit', 'DEPOSIT_CRYPTO_INTERNAL', 'complete'],
      ...records
        .filter((r) => r.record_type === 'FEE')
        .map(() => [sender.walletId, 'withdrawal', 'FEE', 'complete']),
      [sender.walletId, 'withdrawal', 'WITHDRAWAL_CRYPTO_INTERNAL', 'complete'],
    ])
    expect(await entriesOf(app.db, order.id)).toEqual(['hold', 'settle'])
    await expectLedgerInvariants(app)
  })

  it('EXCHANGE_CRYPTO_INTERNAL: at the quoted rate through the treasury, COMPLETE as it is placed', async () => {
    const user = await orderUser(app)
    await fund(app.db, user.walletId, CUR.USDT_TRON, '1000')
    const q = await quote(app, user, {
      order_type: 'EXCHANGE_CRYPTO_INTERNAL',
      from_uuid: CUR.USDT_TRON,
      to_uuid: CUR.EUR,
      amount_from: '500',
    })
    const fees0 = await accountBalance(app.db, await system('fees'), CUR.USDT_TRON)
    const order = await placed(app, user, q)
    expect(await recordsOf(app.db, order.id)).toEqual([
      expect.objectContaining({
        type: 'deposit',
        method: 'exchange',
        record_type: 'EXCHANGE_CRYPTO_INTERNAL',
        status: 'complete',
        amount: `${q.to.amount} EUR`,
      }),
      expect.objectContaining({
        type: 'withdrawal',
        method: 'exchange',
        record_type: 'EXCHANGE_CRYPTO_INTERNAL',
        status: 'complete',
        amount: '500.000000 USDT',
      }),
      expect.objectContaining({ type: 'withdrawal', method: 'exchange', record_type: 'FEE' }),
    ])
    // Nothing is left for a job (issue 29): the answer is final, and reads back the same.
    expect(statuses(order)).toEqual(['NEW', 'COMPLETE'])
    expect(await entriesOf(app.db, order.id)).toEqual(['settle'])
    const done = await getOrder(app, user, order.id)
    expect(done).toEqual(order)
    expect(statuses(done)).toEqual(['NEW', 'COMPLETE'])
    expect(eventCodes(done)).toEqual(['FUNDS_HELD', 'EXCHANGED'])
    expect(done.rate).toBe(q.rate)
    expect(await balances(app.db, user.walletId, CUR.USDT_TRON)).toEqual({
      available: minus('1000.000000', q.total, 6),
      held: '0.000000',
    })
    expect(await balances(app.db, user.walletId, CUR.EUR)).toEqual({
      available: q.to.amount,
      held: '0.00',
    })
    expect(await accountBalance(app.db, await system('fees'), CUR.USDT_TRON)).toBe(
      plus(fees0, feeSum(q), 6),
    )
    expect((await recordsOf(app.db, order.id)).every((r) => r.status === 'complete')).toBe(true)
    await expectLedgerInvariants(app)
  })

  it.each([
    ['TRANSFER_CARD_PREPAID', 'prepaid'],
    ['TRANSFER_CARD_SUBACCOUNT', 'balance'],
  ] as const)(
    '%s: the fiat account’s sub-account is topped up, in one step',
    async (orderType, subAccountType) => {
      const user = await orderUser(app)
      await fund(app.db, user.walletId, CUR.EUR, '200.00')
      const account = await insertFiatAccount(app.db, user.walletId, { subAccountType })
      const q = await quote(app, user, {
        order_type: orderType,
        from_uuid: CUR.EUR,
        fiat_account_id: account.id,
        amount_from: '100.00',
      })
      const order = await placed(app, user, q)
      await app.jobs.runDue({ now: new Date() })

      const done = await getOrder(app, user, order.id)
      expect(statuses(done)).toEqual(['NEW', 'COMPLETE'])
      expect(eventCodes(done)).toEqual(['FUNDS_HELD', 'TOPPED_UP'])
      expect(await accountBalance(app.db, account.ledgerAccountId, CUR.EUR)).toBe(q.to.amount)
      // The sub-account is the card's money, not part of the wallet's balances.
      expect(await balances(app.db, user.walletId, CUR.EUR)).toEqual({
        available: minus('200.00', q.total, 2),
        held: '0.00',
      })
      expect(
        (await recordsOf(app.db, order.id)).map((r) => [r.type, r.method, r.record_type, r.status]),
      ).toEqual([
        ['withdrawal', 'p2p', 'CARD_PROVIDER_DEPOSIT', 'complete'],
        ...q.fees
          .filter((fee) => fee.amount !== '0.00')
          .map(() => ['withdrawal', 'p2p', 'FEE', 'complete']),
      ])
      await expectLedgerInvariants(app)
    },
  )

  it('TRANSFER_CARD_WHOLESALE: USDT converted into the fiat account’s euros', async () => {
    const user = await orderUser(app)
    await fund(app.db, user.walletId, CUR.USDT_TRON, '2000')
    const account = await insertFiatAccount(app.db, user.walletId, { subAccountType: 'balance' })
    const q = await quote(app, user, {
      order_type: 'TRANSFER_CARD_WHOLESALE',
      from_uuid: CUR.USDT_TRON,
      fiat_account_id: account.id,
      amount_from: '1000',
    })
    expect(q.to.currency).toBe('EUR')
    const order = await placed(app, user, q)
    await app.jobs.runDue({ now: new Date() })

    expect(eventCodes(await getOrder(app, user, order.id))).toEqual(['FUNDS_HELD', 'TOPPED_UP'])
    expect(await accountBalance(app.db, account.ledgerAccountId, CUR.EUR)).toBe(q.to.amount)
    expect(await balances(app.db, user.walletId, CUR.USDT_TRON)).toEqual({
      available: minus('2000.000000', q.total, 6),
      held: '0.000000',
    })
    expect((await recordsOf(app.db, order.id)).map((r) => [r.method, r.record_type])).toEqual([
      ...q.fees.filter((fee) => fee.amount !== '0.000000').map(() => ['exchange', 'FEE']),
      ['exchange', 'WHOLESALE_CARD_DEPOSIT'],
    ])
    await expectLedgerInvariants(app)
  })

  it('lists the caller’s orders newest first, filtered, each with its timeline', async () => {
    const user = await orderUser(app)
    const other = await orderUser(app)
    await fund(app.db, user.walletId, CUR.USDT_TRON, '100')
    const deposit = await placed(
      app,
      user,
      await quote(app, user, {
        order_type: 'DEPOSIT_FIAT_SEPA',
        from_uuid: CUR.EUR,
        amount_from: '10.00',
      }),
    )
    const exchange = await placed(
      app,
      user,
      await quote(app, user, {
        order_type: 'EXCHANGE_CRYPTO_INTERNAL',
        from_uuid: CUR.USDT_TRON,
        to_uuid: CUR.EUR,
        amount_from: '20',
      }),
    )
    await placed(
      app,
      other,
      await quote(app, other, {
        order_type: 'DEPOSIT_FIAT_SEPA',
        from_uuid: CUR.EUR,
        amount_from: '10.00',
      }),
    )

    const all = (await v1(app, user, 'GET', '/orders')).json<OrderList>()
    expect(all).toMatchObject({ total: 2, limit: 10, offset: 0, is_last_page: true })
    expect(all.data.map((order) => order.id)).toEqual([exchange.id, deposit.id])
    expect(all.data[1]!.timeline.map((event) => event.status)).toEqual(['NEW', 'PENDING'])
    expect(all.data[1]!.deposit_instructions?.reference).toBe(
      deposit.deposit_instructions!.reference,
    )

    const filtered = async (query: string) =>
      (await v1(app, user, 'GET', `/orders?${query}`)).json<OrderList>().data.map((o) => o.id)
    expect(await filtered('status=PENDING')).toEqual([deposit.id])
    expect(await filtered('order_type=EXCHANGE_CRYPTO_INTERNAL')).toEqual([exchange.id])
    expect(await filtered(`wallet_uuid=${user.walletId}&limit=1&offset=1`)).toEqual([deposit.id])
    // A page before the last is not counted unless asked.
    const firstOfTwo = (await v1(app, user, 'GET', '/orders?limit=1')).json<OrderList>()
    expect(firstOfTwo).toMatchObject({ limit: 1, is_last_page: false })
    expect(firstOfTwo).not.toHaveProperty('total')
    expect((await v1(app, user, 'GET', '/orders?limit=1&with_total=true')).json()).toMatchObject({
      total: 2,
    })
    expect(await filtered(`wallet_uuid=${other.walletId}`)).toEqual([])

    // Another person's order is not there, exactly like a missing one.
    expectProblem(await v1(app, other, 'GET', `/orders/${deposit.id}`), 404, 'ORDER_NOT_FOUND')
    expectProblem(
      await v1(app, other, 'GET', '/orders/0190f5a4-0000-7000-8000-000000000000'),
      404,
      'ORDER_NOT_FOUND',
    )
    const single = await getOrder(app, user, exchange.id)
    expect(single satisfies Order).toMatchObject({
      id: exchange.id,
      timeline: [{ status: 'NEW' }, { status: 'COMPLETE' }],
    })
  })
})
