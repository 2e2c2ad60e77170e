import type { FastifyInstance } from 'fastify'
import { afterAll, expect, it } from 'vitest'
import type { Schedule } from '../../../contract/schedules.ts'
import { DEMO_TENANT_ID } from '../../../contract/tenancy.ts'
import { enqueue } from '../../infra/jobs.ts'
import { provision } from '../../test-databases.ts'
import { createTestAppOn, describeServer } from '../../test-support.ts'
import { expectLedgerInvariants } from '../ledger/ledger-test-support.ts'
import { CUR, fund } from '../orders/order-fixtures.ts'
import { as, euros, type Person, person } from '../transfers/transfer-test-support.ts'
import { SCHEDULE_RUN_JOB } from './run-schedule.ts'

const onPostgres = process.env.TEST_DB_ENGINE === 'postgres'

/**
 * Each occurrence of a schedule runs exactly once (issue 32): with two
 * server processes on one database running their job queues at the same
 * moment, and after a process died mid-run — before its payment, or after
 * it and before the run was written down. Each app here is one process: the
 * same database, nothing else shared. The real server killed with SIGKILL:
 * schedule-crash.test.ts.
 */
describeServer('a schedule’s run happens exactly once', () => {
  const cleanups: (() => Promise<unknown>)[] = []
  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup()
  })

  /** A database that outlives its apps: PGlite on disk, or a PostgreSQL database. */
  async function place() {
    const provisioned = await provision({ migrated: true, onDisk: true })
    cleanups.push(provisioned.dispose)
    return { dataDir: provisioned.dataDir, databaseUrl: provisioned.databaseUrl }
  }
  async function appOn(where: Awaited<ReturnType<typeof place>>) {
    const app = await createTestAppOn(where, { RATES_SANDBOX_LATENCY_MS: '0' })
    cleanups.push(() => app.close())
    return app
  }

  async function drain(app: FastifyInstance, now: Date) {
    for (;;) {
      const report = await app.jobs.runDue({ now, limit: 50 })
      if (report.done + report.rescheduled + report.failed === 0) return
    }
  }

  /** Mia pays Anna 1 EUR every day from a minute from now, under `count` schedules. */
  async function schedules(app: FastifyInstance, count: number) {
    const mia = await person(app, 'Mia', 'Daily', { stepUp: true })
    const anna = await person(app, 'Anna', 'Daily')
    await fund(app.db, mia.walletId, CUR.EUR, '100')
    const startsAt = new Date(Math.ceil((Date.now() + 60_000) / 1000) * 1000)
    const template = {
      to: { email: anna.email },
      wallet_uuid: mia.walletId,
      currency_uuid: CUR.EUR,
      amount: '1',
      note: 'Lunch',
    }
    const made: Schedule[] = []
    for (let i = 0; i < count; i++) {
      const response = await as(app, mia, 'POST', '/schedules', {
        kind: 'transfer',
        template,
        rrule: 'FREQ=DAILY',
        starts_at: startsAt.toISOString(),
        time_zone: 'Europe/Berlin',
      })
      expect(response.statusCode, response.body).toBe(201)
      made.push(response.json<Schedule>())
    }
    return { mia, anna, template, startsAt, made }
  }

  const transfersOf = (app: FastifyInstance, sender: Person) =>
    app.db
      .selectFrom('transfers')
      .innerJoin('users', 'users.id', 'transfers.sender_id')
      .select('transfers.id')
      .where('users.email', '=', sender.email)
      .execute()

  if (onPostgres) {
    it('two processes running their queues at the same moment: one transfer per occurrence', async () => {
      const where = await place()
      const a = await appOn(where)
      const b = await appOn(where)
      const { mia, anna, startsAt, made } = await schedules(a, 6)

      // A second job for each occurrence, as a repeated enqueue would make: the two
      // processes then hold two jobs of one occurrence at the same moment.
      for (const schedule of made) {
        await a.db.transaction().execute((trx) =>
          enqueue(trx, {
            kind: SCHEDULE_RUN_JOB,
            tenantId: DEMO_TENANT_ID,
            payload: { schedule_id: schedule.id, occurrence_at: startsAt.toISOString() },
            runAt: startsAt,
          }),
        )
      }
      const due = new Date(startsAt.getTime() + 1000)
      await Promise.all([drain(a, due), drain(b, due), drain(a, due), drain(b, due)])

      expect(await transfersOf(a, mia)).toHaveLength(6)
      expect(await euros(a, anna)).toBe('6.00')
      const runs = await a.db
        .selectFrom('schedule_runs')
        .select(['schedule_id', 'status'])
        .where(
          'schedule_id',
          'in',
          made.map((one) => one.id),
        )
        .execute()
      expect(runs).toHaveLength(6)
      expect(runs.every((run) => run.status === 'COMPLETE')).toBe(true)
      await expectLedgerInvariants(a)
    })
  }

  it('a process that died mid-run: the run is carried on, and pays once', async () => {
    const where = await place()
    const first = await appOn(where)
    const { mia, anna, template, startsAt, made } = await schedules(first, 2)
    const [paidBeforeCrash, crashedBeforePaying] = made as [Schedule, Schedule]
    // What a runner left when it was killed: each occurrence's run begun (RUNNING, its
    // unique key taken); for the first, its transfer committed under the run's own key.
    for (const schedule of made) {
      await first.db
        .insertInto('schedule_runs')
        .values({
          id: crypto.randomUUID(),
          tenant_id: DEMO_TENANT_ID,
          schedule_id: schedule.id,
          occurrence_at: startsAt,
        })
        .execute()
    }
    const run = await first.db
      .selectFrom('schedule_runs')
      .select('id')
      .where('schedule_id', '=', paidBeforeCrash.id)
      .executeTakeFirstOrThrow()
    const paid = await as(first, mia, 'POST', '/transfers', {
      ...template,
      request_id: `schedule:${run.id}`,
    })
    expect(paid.statusCode, paid.body).toBe(201)
    await first.close()

    // The restart: the jobs are due again (their lease ran out with the process).
    const second = await appOn(where)
    await drain(second, new Date(startsAt.getTime() + 60_000))

    expect(await transfersOf(second, mia)).toHaveLength(2)
    expect(await euros(second, anna)).toBe('2.00')
    for (const schedule of [paidBeforeCrash, crashedBeforePaying]) {
      const after = (await as(second, mia, 'GET', `/schedules/${schedule.id}`)).json<Schedule>()
      expect(after.recent_runs).toMatchObject([
        { occurrence_at: startsAt.toISOString(), status: 'COMPLETE' },
      ])
      expect(after.next_runs[0]).toBe(schedule.next_runs[1])
    }
    const carried = (
      await as(second, mia, 'GET', `/schedules/${paidBeforeCrash.id}`)
    ).json<Schedule>()
    expect(carried.recent_runs[0]!.transfer_id).toBe(paid.json<{ id: string }>().id)
    await expectLedgerInvariants(second)
  })
})
