import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest'
import { DEMO_TENANT_ID } from '../../../contract/tenancy.ts'
import { backoffMs, JobRunner } from '../../infra/jobs.ts'
import {
  BankUnavailableError,
  type PayoutRequest,
  type PayoutState,
} from '../../providers/banking/banking.ts'
import { SandboxBank } from '../../providers/banking/sandbox.ts'
import {
  type Broadcast,
  type ChainProgress,
  ChainUnavailableError,
  type ChainWithdrawal,
} from '../../providers/chain/payouts.ts'
import { SandboxChainPayouts } from '../../providers/chain/sandbox-payouts.ts'
import {
  bearer,
  captureLogs,
  createTestApp,
  describeServer,
  expectProblem,
  headers,
} from '../../test-support.ts'
import { expectLedgerInvariants } from '../ledger/ledger-test-support.ts'
import {
  balances,
  CUR,
  entriesOf,
  externalAddress,
  fund,
  getOrder,
  IBAN,
  type OrderUser,
  orderUser,
  placed,
  quote,
  recordsOf,
  statuses,
  v1,
} from './order-fixtures.ts'
import { insertDestination } from './quote-test-support.ts'
import { MAX_ATTEMPTS } from './rules.ts'
import { ORDER_JOB, OrderService } from './service.ts'
import { stalledEvent } from './timeline-rules.ts'

const BANK_MS = 2_000
const BLOCK_MS = 60_000
const LEASE_MS = 30_000
const FIVE_MINUTES = 5 * 60_000

/** The sandbox bank, with an outage to switch on and the payouts it was asked for. */
class SwitchableBank extends SandboxBank {
  down = false
  readonly submitted: PayoutRequest[] = []

  override async submitPayout(request: PayoutRequest) {
    if (this.down) throw new BankUnavailableError('the bank is down')
    this.submitted.push(request)
    return super.submitPayout(request)
  }

  override async payoutStatus(
    payout: { reference: string; submittedAt: Date },
    now: Date,
  ): Promise<PayoutState> {
    if (this.down) throw new BankUnavailableError('the bank is down')
    return super.payoutStatus(payout, now)
  }
}

/** The sandbox chain, with a node outage to switch on and broadcasts a test answers itself. */
class SwitchableChain extends SandboxChainPayouts {
  down = false
  /** Each answers one broadcast, first come first served, before the sandbox's own rules. */
  readonly scripted: ((withdrawal: ChainWithdrawal) => Promise<Broadcast>)[] = []

  override async broadcast(withdrawal: ChainWithdrawal): Promise<Broadcast> {
    const scripted = this.scripted.shift()
    if (scripted) return scripted(withdrawal)
    if (this.down) throw new ChainUnavailableError('the node is down')
    return super.broadcast(withdrawal)
  }

  override async progress(tx: { broadcastAt: Date }, now: Date): Promise<ChainProgress> {
    if (this.down) throw new ChainUnavailableError('the node is down')
    return super.progress(tx, now)
  }
}

/**
 * Orders whose bank or chain stops answering once it has them, and what a
 * handed-off order pays. A runner of the file's own carries the orders, with
 * rails the tests switch off and on; the app's runner is never run here.
 */
describeServer('orders whose rail stops answering', () => {
  let app: FastifyInstance
  let runner: JobRunner
  const logs = captureLogs()
  const bank = new SwitchableBank({ payoutMs: BANK_MS })
  const chain = new SwitchableChain({ blockMs: BLOCK_MS })
  beforeAll(async () => {
    app = await createTestApp({}, { logStream: logs.stream })
    const service = new OrderService(
      app.db,
      { bank, chain },
      { maxConfirmations: 3, quoteTokens: app.services.quotes.tokens },
    )
    runner = new JobRunner(app.db, app.log, { leaseMs: LEASE_MS })
    runner.register(ORDER_JOB, service.process)
  })
  afterAll(() => app?.close())
  beforeEach(() => {
    bank.down = false
    chain.down = false
    chain.scripted.length = 0
  })

  const at = (base: Date, ms: number) => new Date(base.getTime() + ms)
  const logged = (message: string) =>
    logs.lines.map((line) => JSON.parse(line)).filter((line) => line.msg === message)

  /** When the order's job runs next, and whether it is done. */
  async function jobOf(orderId: string) {
    const rows = await app.db
      .selectFrom('jobs')
      .select(['run_at', 'done_at', 'payload'])
      .where('kind', '=', ORDER_JOB)
      .execute()
    const job = rows.find((row) => row.payload.order_id === orderId)
    if (!job) throw new Error(`no job for order ${orderId}`)
    return { runAt: job.run_at, done: job.done_at !== null }
  }

  async function sepaWithdrawal(user: OrderUser) {
    await fund(app.db, user.walletId, CUR.EUR, '300.00')
    const destination = await insertDestination(app.db, DEMO_TENANT_ID, user.walletId, {
      type: 'SEPA',
      iban: IBAN.OK,
      bic: 'COBADEFFXXX',
    })
    const q = await quote(app, user, {
      order_type: 'WITHDRAWAL_FIAT_SEPA',
      from_uuid: CUR.EUR,
      destination_id: destination.destinationId,
      amount_from: '100.00',
    })
    return { ...destination, order: await placed(app, user, q) }
  }

  async function chainWithdrawal(user: OrderUser) {
    await fund(app.db, user.walletId, CUR.USDT_TRON, '500')
    const q = await quote(app, user, {
      order_type: 'WITHDRAWAL_CRYPTO',
      from_uuid: CUR.USDT_TRON,
      address: externalAddress('tron'),
      amount_from: '100',
    })
    return { q, order: await placed(app, user, q) }
  }

  it('a payout the bank took, then no answer: PENDING and held, one note, asked every 5 minutes at most, paid when the bank is back', async () => {
    const user = await orderUser(app)
    const { order } = await sepaWithdrawal(user)
    const t0 = new Date()
    await runner.runDue({ now: t0 })
    expect((await getOrder(app, user, order.id)).status).toBe('PENDING')

    bank.down = true
    const warnings = logged('order handed to its rail gets no answer: held, asked again').length
    let now = at(t0, BANK_MS)
    for (let attempt = 1; attempt <= MAX_ATTEMPTS + 6; attempt++) {
      expect(await runner.runDue({ now })).toMatchObject({ failed: 1, done: 0 })
      const job = await jobOf(order.id)
      expect(job.done).toBe(false)
      // The runner's backoff, never more than 5 minutes apart.
      expect(job.runAt.getTime() - now.getTime()).toBe(Math.min(backoffMs(attempt), FIVE_MINUTES))
      now = job.runAt
    }
    expect(backoffMs(MAX_ATTEMPTS + 6)).toBe(FIVE_MINUTES)

    const stalled = await getOrder(app, user, order.id)
    expect(stalled).toMatchObject({ status: 'PENDING', failure_code: null })
    expect(stalled.timeline.map((event) => [event.status, event.code, event.note])).toEqual([
      ['NEW', 'FUNDS_HELD', expect.any(String)],
      ['PENDING', 'SENT_TO_BANK', 'Sent to the bank'],
      ['PENDING', 'BANK_NOT_ANSWERING', stalledEvent('bank_out').note],
    ])
    expect(await balances(app.db, user.walletId, CUR.EUR)).toEqual({
      available: '199.00',
      held: '101.00',
    })
    expect(await entriesOf(app.db, order.id)).toEqual(['hold'])
    expect((await recordsOf(app.db, order.id)).every((r) => r.status === 'pending')).toBe(true)
    expectProblem(
      await v1(app, user, 'POST', `/orders/${order.id}/cancel`),
      409,
      'ORDER_NOT_CANCELABLE',
    )
    expect(logged('order handed to its rail gets no answer: held, asked again')).toHaveLength(
      warnings + 1,
    )

    bank.down = false
    expect(await runner.runDue({ now })).toMatchObject({ done: 1 })
    const paid = await getOrder(app, user, order.id)
    expect(statuses(paid)).toEqual(['NEW', 'PENDING', 'PENDING', 'COMPLETE'])
    expect(await entriesOf(app.db, order.id)).toEqual(['hold', 'settle'])
    expect(await balances(app.db, user.walletId, CUR.EUR)).toEqual({
      available: '199.00',
      held: '0.00',
    })
    expect((await jobOf(order.id)).done).toBe(true)
    await expectLedgerInvariants(app)
  })

  it('a broadcast withdrawal whose node goes quiet, twice with a block between, keeps its hold and one note, then confirms', async () => {
    const user = await orderUser(app)
    const { q, order } = await chainWithdrawal(user)
    const t0 = new Date()
    await runner.runDue({ now: t0 })
    const broadcast = await getOrder(app, user, order.id)
    expect(broadcast.status).toBe('PENDING')
    expect(broadcast.tx_hash).toEqual(expect.any(String))

    /** MAX_ATTEMPTS failures in a row from `from`; answers the time of the next try. */
    async function outage(from: Date) {
      chain.down = true
      let now = from
      for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
        expect(await runner.runDue({ now })).toMatchObject({ failed: 1 })
        now = (await jobOf(order.id)).runAt
      }
      chain.down = false
      return now
    }
    // Quiet from the first block on; back for one block (two short of done); quiet again.
    const back = await outage((await jobOf(order.id)).runAt)
    expect(await runner.runDue({ now: back })).toMatchObject({ rescheduled: 1 })
    await outage((await jobOf(order.id)).runAt)

    const stalled = await getOrder(app, user, order.id)
    expect(stalled).toMatchObject({ status: 'PENDING', tx_hash: broadcast.tx_hash })
    expect(stalled.timeline.map((event) => [event.status, event.code, event.note])).toEqual([
      ['NEW', 'FUNDS_HELD', expect.any(String)],
      ['PENDING', 'BROADCAST', 'Broadcast to the network'],
      ['PENDING', 'NETWORK_NOT_ANSWERING', stalledEvent('chain').note],
    ])
    expect(await balances(app.db, user.walletId, CUR.USDT_TRON)).toMatchObject({ held: q.total })
    expect(await entriesOf(app.db, order.id)).toEqual(['hold'])

    expect(await runner.runDue({ now: at(t0, 3 * BLOCK_MS) })).toMatchObject({ done: 1 })
    const confirmed = await getOrder(app, user, order.id)
    expect(statuses(confirmed)).toEqual(['NEW', 'PENDING', 'PENDING', 'COMPLETE'])
    expect(await entriesOf(app.db, order.id)).toEqual(['hold', 'settle'])
    await expectLedgerInvariants(app)
  })

  it('a bank that never answers the payout itself: the order stays NEW, held and not cancelable, and is sent again', async () => {
    const user = await orderUser(app)
    const { order } = await sepaWithdrawal(user)
    bank.down = true
    let now = new Date()
    for (let attempt = 1; attempt <= MAX_ATTEMPTS + 1; attempt++) {
      expect(await runner.runDue({ now })).toMatchObject({ failed: 1 })
      now = (await jobOf(order.id)).runAt
    }
    const stalled = await getOrder(app, user, order.id)
    expect(stalled.timeline.map((event) => [event.status, event.code, event.note])).toEqual([
      ['NEW', 'FUNDS_HELD', expect.any(String)],
      ['NEW', 'BANK_NOT_ANSWERING', stalledEvent('bank_out').note],
    ])
    expect(await entriesOf(app.db, order.id)).toEqual(['hold'])
    expectProblem(
      await v1(app, user, 'POST', `/orders/${order.id}/cancel`),
      409,
      'ORDER_NOT_CANCELABLE',
    )

    // The same payout again (idempotent on the order id): the bank takes it now,
    // and it settled long since its hand-off.
    bank.down = false
    expect(await runner.runDue({ now })).toMatchObject({ done: 1 })
    expect(bank.submitted.filter((payout) => payout.id === order.id)).toHaveLength(1)
    const paid = await getOrder(app, user, order.id)
    expect(statuses(paid)).toEqual(['NEW', 'NEW', 'PENDING', 'COMPLETE'])
    expect(await entriesOf(app.db, order.id)).toEqual(['hold', 'settle'])
    await expectLedgerInvariants(app)
  })

  it('the payout pays the account and the name as quoted, not the destination as edited since', async () => {
    const user = await orderUser(app)
    const { order, counterpartyId, destinationId } = await sepaWithdrawal(user)
    // Renaming the counterparty is allowed while the order is open…
    const renamed = await app.inject({
      method: 'PATCH',
      url: `/api/v2/counterparties/${user.walletId}/${counterpartyId}`,
      headers: headers(bearer(user.token)),
      payload: { first_name: 'Someone', last_name: 'Else' },
    })
    expect(renamed.statusCode, renamed.body).toBe(200)
    // …and a row edited behind the API's back must not matter either.
    await app.db
      .updateTable('counterparty_destinations')
      .set({ iban: 'GB82WEST12345698765432', bic: 'NWBKGB2LXXX' })
      .where('id', '=', destinationId)
      .execute()

    const t0 = new Date()
    await runner.runDue({ now: t0 })
    expect(bank.submitted.filter((payout) => payout.id === order.id)).toEqual([
      expect.objectContaining({
        iban: IBAN.OK,
        bic: 'COBADEFFXXX',
        beneficiary: 'Anna Schmidt',
        amountMinor: 100_00n,
        currency: 'EUR',
      }),
    ])
    expect((await getOrder(app, user, order.id)).status).toBe('PENDING')
    await runner.runDue({ now: at(t0, BANK_MS) })
    expect((await getOrder(app, user, order.id)).status).toBe('COMPLETE')
  })

  it('an acceptance that arrives after another run moved the order on is kept, and logged for reconciliation', async () => {
    const user = await orderUser(app)
    const { order } = await chainWithdrawal(user)
    const sandbox = new SandboxChainPayouts({ blockMs: BLOCK_MS })
    let answer!: () => void
    const slow = new Promise<void>((resolve) => {
      answer = resolve
    })
    // This run's node is slow to accept; the next run's (its lease ran out) refuses.
    chain.scripted.push(async (withdrawal) => {
      await slow
      return sandbox.broadcast(withdrawal)
    })
    chain.scripted.push(async () => ({ accepted: false, code: 'ADDRESS_REJECTED', reason: 'no' }))
    const t0 = new Date()
    const first = runner.runDue({ now: t0 })
    while (chain.scripted.length === 2) await new Promise((resolve) => setTimeout(resolve, 5))

    expect(await runner.runDue({ now: at(t0, LEASE_MS + 1) })).toMatchObject({ done: 1 })
    expect(await getOrder(app, user, order.id)).toMatchObject({
      status: 'FAILED',
      tx_hash: null,
    })
    answer()
    await first

    const kept = await getOrder(app, user, order.id)
    expect(kept).toMatchObject({ status: 'FAILED', tx_hash: expect.any(String) })
    expect(logged('the rail accepted an order that had already moved on: reconcile it')).toEqual([
      expect.objectContaining({ level: 50, order: order.id, reference: kept.tx_hash }),
    ])
  })
})
