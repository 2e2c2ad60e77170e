import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, expect, it } from 'vitest'
import type { Schedule } from '../../../contract/schedules.ts'
import { DEMO_TENANT_ID } from '../../../contract/tenancy.ts'
import { enqueue } from '../../infra/jobs.ts'
import { createTestApp, describeServer, expectProblem } from '../../test-support.ts'
import { expectLedgerInvariants } from '../ledger/ledger-test-support.ts'
import { balances, CUR, fund } from '../orders/order-fixtures.ts'
import { as, euros, eventsOf, type Person, person } from '../transfers/transfer-test-support.ts'
import { SCHEDULE_RUN_JOB } from './run-schedule.ts'

const HOUR = 60 * 60 * 1000

/**
 * Payments that repeat (issue 32 part 3), in one process: the next five runs
 * in the answer, each run an ordinary transfer or order, a run short of money
 * failing with an event while the schedule goes on, an exchange skipped when
 * its price moved, pause, resume and skip. Exactly once across processes and
 * crashes: schedule-processes.test.ts.
 */
describeServer('schedules', () => {
  let app: FastifyInstance
  beforeAll(async () => {
    app = await createTestApp({ RATES_SANDBOX_LATENCY_MS: '0', QUOTE_TTL_SECONDS: '600' })
  })
  afterAll(() => app?.close())

  /** Runs every due job as if it were `now`. */
  async function drain(now: Date) {
    for (;;) {
      const report = await app.jobs.runDue({ now, limit: 50 })
      if (report.done + report.rescheduled + report.failed === 0) return
    }
  }

  const inAnHour = () => new Date(Math.ceil((Date.now() + HOUR) / 1000) * 1000)

  const create = (who: Person, body: Record<string, unknown>) =>
    as(app, who, 'POST', '/schedules', {
      rrule: 'FREQ=DAILY',
      time_zone: 'Europe/Berlin',
      starts_at: inAnHour().toISOString(),
      ...body,
    })

  const get = async (who: Person, id: string) =>
    (await as(app, who, 'GET', `/schedules/${id}`)).json<Schedule>()

  async function pair() {
    const mia = await person(app, 'Mia', 'Plans', { stepUp: true })
    const anna = await person(app, 'Anna', 'Gets')
    return { mia, anna }
  }

  const transferTemplate = (mia: Person, anna: Person, amount: string) => ({
    to: { email: anna.email },
    wallet_uuid: mia.walletId,
    currency_uuid: CUR.EUR,
    amount,
    note: 'Pocket money',
  })

  it('answers the next five runs; each run is a transfer, once, and the schedule moves on', async () => {
    const { mia, anna } = await pair()
    await fund(app.db, mia.walletId, CUR.EUR, '100')
    const starts = inAnHour()

    const response = await create(mia, {
      kind: 'transfer',
      template: transferTemplate(mia, anna, '10'),
      starts_at: starts.toISOString(),
    })

    expect(response.statusCode, response.body).toBe(201)
    const schedule = response.json<Schedule>()
    expect(schedule.status).toBe('ACTIVE')
    expect(schedule.next_runs).toHaveLength(5)
    expect(schedule.next_runs[0]).toBe(starts.toISOString())
    // Daily at the same Berlin wall-clock time (no daylight-saving change in these five days
    // unless the suite runs on one: then the hour moves, and rules.test.ts says how).
    expect(new Set(schedule.next_runs.map((at) => new Date(at).getUTCMinutes())).size).toBe(1)
    expect(schedule.recent_runs).toEqual([])

    // Nothing is due before the first run.
    await drain(new Date(starts.getTime() - 1000))
    expect(await euros(app, anna)).toBe('0.00')

    // A second job for the same occurrence, as a second enqueue would make: still once.
    await app.db.transaction().execute((trx) =>
      enqueue(trx, {
        kind: SCHEDULE_RUN_JOB,
        tenantId: DEMO_TENANT_ID,
        payload: { schedule_id: schedule.id, occurrence_at: starts.toISOString() },
        runAt: starts,
      }),
    )
    await drain(new Date(starts.getTime() + 1000))

    expect(await euros(app, anna)).toBe('10.00')
    expect(await euros(app, mia)).toBe('90.00')
    const after = await get(mia, schedule.id)
    expect(after.recent_runs).toMatchObject([
      { occurrence_at: starts.toISOString(), status: 'COMPLETE', reason: null },
    ])
    expect(after.recent_runs[0]!.transfer_id).not.toBeNull()
    expect(after.next_runs[0]).toBe(schedule.next_runs[1])
    expect(after.next_runs).toHaveLength(5)

    // The next day's run.
    await drain(new Date(new Date(schedule.next_runs[1]!).getTime() + 1000))
    expect(await euros(app, anna)).toBe('20.00')
    expect((await get(mia, schedule.id)).recent_runs.map((run) => run.status)).toEqual([
      'COMPLETE',
      'COMPLETE',
    ])
    await expectLedgerInvariants(app)
  })

  it('short of money: the run fails with an event, and the schedule goes on', async () => {
    const { mia, anna } = await pair()
    await fund(app.db, mia.walletId, CUR.EUR, '5')
    const schedule = (
      await create(mia, { kind: 'transfer', template: transferTemplate(mia, anna, '10') })
    ).json<Schedule>()

    await drain(new Date(new Date(schedule.next_runs[0]!).getTime() + 1000))

    const after = await get(mia, schedule.id)
    expect(after.status).toBe('ACTIVE')
    expect(after.recent_runs).toMatchObject([{ status: 'FAILED', reason: 'INSUFFICIENT_FUNDS' }])
    expect(after.next_runs[0]).toBe(schedule.next_runs[1])
    expect(await euros(app, mia)).toBe('5.00')
    expect(await eventsOf(app, mia.userId, 'schedule.%')).toMatchObject([
      {
        kind: 'schedule.run_failed',
        payload: {
          schedule_id: schedule.id,
          reason: 'INSUFFICIENT_FUNDS',
          amount: '10',
          currency: 'EUR',
        },
      },
    ])
  })

  it('during a lockdown a run that pays out fails, moving nothing, and the schedule goes on', async () => {
    const { mia, anna } = await pair()
    await fund(app.db, mia.walletId, CUR.EUR, '50')
    const schedule = (
      await create(mia, { kind: 'transfer', template: transferTemplate(mia, anna, '10') })
    ).json<Schedule>()
    expect((await as(app, mia, 'POST', '/user/lockdown', {})).statusCode).toBe(200)

    await drain(new Date(new Date(schedule.next_runs[0]!).getTime() + 1000))

    const after = await get(mia, schedule.id)
    expect(after.status).toBe('ACTIVE')
    expect(after.recent_runs).toMatchObject([{ status: 'FAILED', reason: 'LOCKDOWN_ACTIVE' }])
    expect(await euros(app, mia)).toBe('50.00')
    expect(await euros(app, anna)).toBe('0.00')
  })

  it('an exchange takes a firm quote at its run, and is skipped when the price moved too far', async () => {
    const mia = await person(app, 'Mia', 'Stacks')
    await fund(app.db, mia.walletId, CUR.USDT_TRON, '200')
    const response = await create(mia, {
      kind: 'exchange',
      rrule: 'FREQ=WEEKLY;BYDAY=MO',
      template: {
        wallet_uuid: mia.walletId,
        from_uuid: CUR.USDT_TRON,
        to_uuid: CUR.EUR,
        amount_from: '50',
      },
      max_slippage_bps: 100,
    })
    expect(response.statusCode, response.body).toBe(201)
    const schedule = response.json<Schedule>()
    expect(schedule.reference_rate).toMatch(/^\d+(\.\d+)?$/)
    expect(
      schedule.next_runs.every(
        (at) => new Date(at).getUTCDay() === 1 || new Date(at).getUTCDay() === 0,
      ),
    ).toBe(true)

    // The price "moved": the reference says a euro cost far less when it was set up.
    await app.db
      .updateTable('schedules')
      .set({ reference_rate: '1000' })
      .where('id', '=', schedule.id)
      .execute()
    await drain(new Date(new Date(schedule.next_runs[0]!).getTime() + 1000))
    let after = await get(mia, schedule.id)
    expect(after.recent_runs).toMatchObject([{ status: 'SKIPPED', reason: 'PRICE_MOVED' }])
    expect((await balances(app.db, mia.walletId, CUR.USDT_TRON)).available).toBe('200.000000')
    expect(await eventsOf(app, mia.userId, 'schedule.%')).toMatchObject([
      { kind: 'schedule.run_skipped', payload: { reason: 'PRICE_MOVED', currency: 'USDT' } },
    ])

    // Back to the price it was set up with: the next run exchanges.
    await app.db
      .updateTable('schedules')
      .set({ reference_rate: schedule.reference_rate })
      .where('id', '=', schedule.id)
      .execute()
    await drain(new Date(new Date(schedule.next_runs[1]!).getTime() + 1000))
    after = await get(mia, schedule.id)
    expect(after.recent_runs.map((run) => run.status)).toEqual(['COMPLETE', 'SKIPPED'])
    expect(after.recent_runs[0]!.order_id).not.toBeNull()
    // 50 USDT and the exchange's fee.
    expect((await balances(app.db, mia.walletId, CUR.USDT_TRON)).available).toBe('149.950000')
  })

  it('pause, resume, skip the next run, delete', async () => {
    const { mia, anna } = await pair()
    await fund(app.db, mia.walletId, CUR.EUR, '100')
    const schedule = (
      await create(mia, { kind: 'transfer', template: transferTemplate(mia, anna, '1') })
    ).json<Schedule>()
    const patch = (body: object) => as(app, mia, 'PATCH', `/schedules/${schedule.id}`, body)

    const paused = await patch({ paused: true })
    expect(paused.json<Schedule>()).toMatchObject({ status: 'PAUSED', next_runs: [] })
    // A paused schedule's job does nothing.
    await drain(new Date(new Date(schedule.next_runs[0]!).getTime() + 1000))
    expect(await euros(app, anna)).toBe('0.00')
    expectProblem(await patch({ skip_next: true }), 422, 'SCHEDULE_INVALID')

    const resumed = (await patch({ paused: false })).json<Schedule>()
    expect(resumed.status).toBe('ACTIVE')
    expect(resumed.next_runs).toHaveLength(5)

    const skipped = (await patch({ skip_next: true })).json<Schedule>()
    expect(skipped.next_runs[0]).toBe(resumed.next_runs[1])
    expect(skipped.recent_runs).toMatchObject([
      { occurrence_at: resumed.next_runs[0], status: 'SKIPPED', reason: 'SKIPPED_BY_YOU' },
    ])
    await drain(new Date(new Date(resumed.next_runs[0]!).getTime() + 1000))
    expect(await euros(app, anna)).toBe('0.00')

    const list = (await as(app, mia, 'GET', '/schedules')).json<{ data: Schedule[] }>()
    expect(list.data.map((item) => item.id)).toContain(schedule.id)
    const deleted = await as(app, mia, 'DELETE', `/schedules/${schedule.id}`)
    expect(deleted.statusCode).toBe(204)
    expectProblem(await as(app, mia, 'GET', `/schedules/${schedule.id}`), 404, 'SCHEDULE_NOT_FOUND')
    await drain(new Date(new Date(resumed.next_runs[1]!).getTime() + 1000))
    expect(await euros(app, anna)).toBe('0.00')
  })

  it('refuses a schedule that cannot run, naming the field', async () => {
    const { mia, anna } = await pair()
    const template = transferTemplate(mia, anna, '1')
    const invalid = async (body: object, field: string) => {
      const response = await create(mia, { kind: 'transfer', template, ...body })
      expectProblem(response, 422, 'SCHEDULE_INVALID')
      expect(response.json().errors).toMatchObject([{ field }])
    }
    await invalid({ rrule: 'FREQ=HOURLY' }, '/body/rrule')
    await invalid({ time_zone: 'Mars/Olympus' }, '/body/time_zone')
    await invalid({ template: { ...template, amount: '0.001' } }, '/body/template/amount')
    await invalid({ template: { ...template, to: { email: mia.email } } }, '/body/template/to')
    // Setting up a payment out needs the second look; an exchange's does not.
    const fresh = await person(app, 'Sam', 'Fresh')
    expectProblem(
      await create(fresh, { kind: 'transfer', template: transferTemplate(fresh, anna, '1') }),
      403,
      'STEP_UP_REQUIRED',
    )
  })
})
