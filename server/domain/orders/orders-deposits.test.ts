import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, expect, it } from 'vitest'
import type { SandboxBankTransfer } from '../../../contract/orders.ts'
import { createTestApp, describeServer, expectProblem } from '../../test-support.ts'
import { expectLedgerInvariants } from '../ledger/ledger-test-support.ts'
import {
  accountBalance,
  balances,
  bankTransfer,
  CUR,
  entriesOf,
  eventCodes,
  feeSum,
  getOrder,
  orderUser,
  placed,
  plus,
  quote,
  RAIL_PACE,
  recordsOf,
  statuses,
  system,
} from './order-fixtures.ts'
import { quoteHash } from './quote-token.ts'

/**
 * The bank deposits from their quote to COMPLETE: the instructions, the transfer that matches
 * them, the money and the records.
 */
describeServer('orders: bank deposits, from quote to final state', () => {
  let app: FastifyInstance
  beforeAll(async () => {
    app = await createTestApp(RAIL_PACE)
  })
  afterAll(() => app?.close())

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
    const fees0 = await accountBalance(app.db, await system(app, 'fees'), CUR.USD)

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
    expect(await accountBalance(app.db, await system(app, 'fees'), CUR.USD)).toBe(
      plus(fees0, fees, 2),
    )
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
})
