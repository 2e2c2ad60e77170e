import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { createTestApp, describeServer } from '../../test-support.ts'
import { expectLedgerInvariants } from '../ledger/ledger-test-support.ts'
import {
  accountBalance,
  balances,
  CUR,
  entriesOf,
  eventCodes,
  feeSum,
  fund,
  getOrder,
  insertFiatAccount,
  minus,
  orderUser,
  placed,
  plus,
  quote,
  RAIL_PACE,
  recordsOf,
  statuses,
  system,
} from './order-fixtures.ts'

/**
 * An exchange and the card top-ups from their quote to COMPLETE: the rate, the treasury, the fiat
 * account.
 */
describeServer('orders: exchanges and card top-ups, from quote to final state', () => {
  let app: FastifyInstance
  beforeAll(async () => {
    app = await createTestApp(RAIL_PACE)
  })
  afterAll(() => app?.close())

  it('EXCHANGE_CRYPTO_INTERNAL: at the quoted rate through the treasury, COMPLETE as it is placed', async () => {
    const user = await orderUser(app)
    await fund(app.db, user.walletId, CUR.USDT_TRON, '1000')
    const q = await quote(app, user, {
      order_type: 'EXCHANGE_CRYPTO_INTERNAL',
      from_uuid: CUR.USDT_TRON,
      to_uuid: CUR.EUR,
      amount_from: '500',
    })
    const fees0 = await accountBalance(app.db, await system(app, 'fees'), CUR.USDT_TRON)
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
    expect(await accountBalance(app.db, await system(app, 'fees'), CUR.USDT_TRON)).toBe(
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
})
