import type { FastifyInstance } from 'fastify'
import { sql } from 'kysely'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { SANCTIONED_ADDRESSES } from '../../providers/chain/sandbox-payouts.ts'
import { createTestApp, describeServer, expectProblem } from '../../test-support.ts'
import { expectLedgerInvariants } from '../ledger/ledger-test-support.ts'
import {
  at,
  BANK_MS,
  BLOCK_MS,
  balances,
  CUR,
  cancel,
  entriesOf,
  eventCodes,
  externalAddress,
  fund,
  getOrder,
  IBAN,
  insertFiatAccount,
  minus,
  orderUser,
  placed,
  quote,
  recordsOf,
  sepaWithdrawal,
  statuses,
} from './order-fixtures.ts'
import { MAX_ATTEMPTS } from './rules.ts'
import { stalledEvent } from './timeline-rules.ts'

/**
 * Orders the rail turns down, never answers or cannot carry: FAILED or ERROR, the funds released
 * (or still held while the bank may yet pay), and a step run twice doing nothing twice.
 */
describeServer('orders that fail or stall on their rail', () => {
  let app: FastifyInstance
  beforeAll(async () => {
    app = await createTestApp({
      SANDBOX_BANK_MS: String(BANK_MS),
      SANDBOX_BLOCK_MS: String(BLOCK_MS),
    })
  })
  afterAll(() => app?.close())

  it('a payout to a closed account comes back: FAILED ACCOUNT_CLOSED, the funds released', async () => {
    const { user, order } = await sepaWithdrawal(app, IBAN.CLOSED)
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

  it(`a bank that never answers the payout: after ${MAX_ATTEMPTS} tries still NEW and held, never released, asked again`, async () => {
    const { user, order } = await sepaWithdrawal(app, IBAN.UNREACHABLE)
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
      expectProblem(await cancel(app, user, order.id), 409, 'ORDER_NOT_CANCELABLE').order_status,
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
    const { user, order } = await sepaWithdrawal(app, IBAN.OK)
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
