import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { createTestApp, describeServer } from '../../test-support.ts'
import { expectLedgerInvariants } from '../ledger/ledger-test-support.ts'
import {
  accountBalance,
  at,
  BANK_MS,
  BLOCK_MS,
  balances,
  CUR,
  entriesOf,
  eventCodes,
  externalAddress,
  fund,
  getOrder,
  IBAN,
  insertDestination,
  minus,
  orderUser,
  placed,
  plus,
  quote,
  RAIL_PACE,
  recordsOf,
  statuses,
  system,
  walletAddress,
} from './order-fixtures.ts'

/**
 * The withdrawals from their quote to COMPLETE: to a bank, to an address on a chain, to another
 * wallet of the platform.
 */
describeServer('orders: withdrawals, from quote to final state', () => {
  let app: FastifyInstance
  beforeAll(async () => {
    app = await createTestApp(RAIL_PACE)
  })
  afterAll(() => app?.close())

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
    const external0 = await accountBalance(app.db, await system(app, 'external'), CUR.EUR)
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
    expect(await accountBalance(app.db, await system(app, 'external'), CUR.EUR)).toBe(
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
})
