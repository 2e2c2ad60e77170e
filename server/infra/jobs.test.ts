import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { createTestApp, describeServer } from '../test-support.ts'
import { backoffMs, type Job, type JobHandler, JobRunner } from './jobs.ts'

const LEASE_MS = 60_000
const onPostgres = process.env.TEST_DB_ENGINE === 'postgres'

describeServer('the job runner', () => {
  let app: FastifyInstance
  beforeAll(async () => {
    app = await createTestApp()
  })
  afterAll(() => app?.close())

  let kinds = 0
  /** A runner of its own with one handler for a kind no other test uses. */
  function runnerFor(handler: JobHandler, kind = `test.kind_${++kinds}`) {
    const runner = new JobRunner(app.db, app.log, { leaseMs: LEASE_MS })
    runner.register(kind, handler)
    return { runner, kind }
  }

  const jobRow = (id: string) =>
    app.db.selectFrom('jobs').selectAll().where('id', '=', id).executeTakeFirstOrThrow()

  const later = (base: Date, ms: number) => new Date(base.getTime() + ms)
  const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

  it('runs a job that is due, leaves one that is not, and marks each done once it ran', async () => {
    const ran: unknown[] = []
    const { runner, kind } = runnerFor(async (job) => {
      ran.push(job.payload.n)
      return undefined
    })
    const due = await runner.enqueue(app.db, { kind, tenantId: null, payload: { n: 1 } })
    const now = new Date()
    const notYet = await runner.enqueue(app.db, {
      kind,
      tenantId: null,
      payload: { n: 2 },
      runAt: later(now, 3_600_000),
    })

    expect(await runner.runDue({ now: later(now, 1) })).toEqual({
      done: 1,
      rescheduled: 0,
      failed: 0,
    })
    expect(ran).toEqual([1])
    expect((await jobRow(due)).done_at).toBeInstanceOf(Date)
    expect((await jobRow(notYet)).done_at).toBeNull()

    expect((await runner.runDue({ now: later(now, 1) })).done).toBe(0)
    expect((await runner.runDue({ now: later(now, 3_600_001) })).done).toBe(1)
    expect(ran).toEqual([1, 2])
    expect((await runner.runDue({ now: later(now, 7_200_000) })).done).toBe(0)
  })

  it('a throwing handler records the error and is retried later, with a growing backoff', async () => {
    let calls = 0
    const { runner, kind } = runnerFor(async () => {
      calls++
      if (calls <= 2) throw new Error(`provider down (${calls})`)
      return undefined
    })
    const id = await runner.enqueue(app.db, { kind, tenantId: null })
    const t0 = later(new Date(), 1)

    expect((await runner.runDue({ now: t0 })).failed).toBe(1)
    let row = await jobRow(id)
    expect(row).toMatchObject({
      attempts: 1,
      last_error: 'Error: provider down (1)',
      done_at: null,
    })
    expect(row.run_at.getTime()).toBe(t0.getTime() + backoffMs(1))

    // Not again before the backoff is over.
    expect((await runner.runDue({ now: later(t0, backoffMs(1) - 1) })).failed).toBe(0)
    const t1 = later(t0, backoffMs(1))
    expect((await runner.runDue({ now: t1 })).failed).toBe(1)
    row = await jobRow(id)
    expect(row.attempts).toBe(2)
    expect(row.run_at.getTime()).toBe(t1.getTime() + backoffMs(2))
    expect(backoffMs(2)).toBeGreaterThan(backoffMs(1))

    expect((await runner.runDue({ now: later(t1, backoffMs(2)) })).done).toBe(1)
    row = await jobRow(id)
    expect(row.done_at).toBeInstanceOf(Date)
    expect(row.last_error).toBeNull()
    expect(calls).toBe(3)
    expect(backoffMs(30)).toBe(5 * 60_000)
  })

  it('a handler may ask for its next step; attempts start again for it', async () => {
    const steps: number[] = []
    const { runner, kind } = runnerFor(async (job: Job, { now }) => {
      steps.push(job.attempt)
      return steps.length < 3 ? { again: later(now, 1_000) } : undefined
    })
    const id = await runner.enqueue(app.db, { kind, tenantId: null })
    const t0 = later(new Date(), 1)
    expect(await runner.runDue({ now: t0 })).toMatchObject({ rescheduled: 1 })
    expect((await jobRow(id)).run_at).toEqual(later(t0, 1_000))
    expect(await runner.runDue({ now: later(t0, 999) })).toMatchObject({ rescheduled: 0 })
    expect(await runner.runDue({ now: later(t0, 1_000) })).toMatchObject({ rescheduled: 1 })
    expect(await runner.runDue({ now: later(t0, 2_000) })).toMatchObject({ done: 1 })
    expect(steps).toEqual([1, 1, 1])
  })

  it('a runner claims only the kinds it has a handler for', async () => {
    const { runner } = runnerFor(async () => undefined)
    const other = await runner.enqueue(app.db, { kind: 'test.nobody_handles_this', tenantId: null })
    await runner.runDue({ now: later(new Date(), 1) })
    expect(await jobRow(other)).toMatchObject({ attempts: 0, done_at: null })
  })

  it('two runners never run one job', async () => {
    const runs = new Map<string, number>()
    const kind = `test.kind_${++kinds}`
    const handler: JobHandler = async (job) => {
      runs.set(job.id, (runs.get(job.id) ?? 0) + 1)
      await sleep(2)
      return undefined
    }
    const a = runnerFor(handler, kind).runner
    const b = runnerFor(handler, kind).runner
    const ids = await Promise.all(
      Array.from({ length: 40 }, () => a.enqueue(app.db, { kind, tenantId: null })),
    )
    const now = later(new Date(), 1)
    const drain = async (runner: JobRunner) => {
      while ((await runner.runDue({ now, limit: 3 })).done > 0) {}
    }
    await Promise.all([drain(a), drain(b), drain(a), drain(b)])
    expect(ids.map((id) => runs.get(id))).toEqual(ids.map(() => 1))
  })

  // PGlite is one connection: no second transaction can hold a row lock while a
  // runner claims, so this case exists only on PostgreSQL.
  if (onPostgres) {
    it('a job locked by another transaction is skipped, not waited for (SKIP LOCKED)', async () => {
      const ran: string[] = []
      const { runner, kind } = runnerFor(async (job) => {
        ran.push(job.id)
        return undefined
      })
      const locked = await runner.enqueue(app.db, { kind, tenantId: null })
      const free = await runner.enqueue(app.db, { kind, tenantId: null })
      const now = later(new Date(), 1)
      await app.db.transaction().execute(async (trx) => {
        await trx.selectFrom('jobs').select('id').where('id', '=', locked).forUpdate().execute()
        // Another connection: the locked row is passed over while this transaction holds it.
        expect((await runner.runDue({ now })).done).toBe(1)
      })
      expect(ran).toEqual([free])
      expect((await runner.runDue({ now })).done).toBe(1)
      expect(ran).toEqual([free, locked])
    })
  }

  it('a job whose runner died mid-run runs again once its lease is over, and only then', async () => {
    let release: () => void = () => {}
    const hanging = new Promise<void>((resolve) => {
      release = resolve
    })
    const started: string[] = []
    const kind = `test.kind_${++kinds}`
    const dying = runnerFor(async (job) => {
      started.push(`dying:${job.attempt}`)
      await hanging
      return undefined
    }, kind).runner
    const rescuer = runnerFor(async (job) => {
      started.push(`rescuer:${job.attempt}`)
      return undefined
    }, kind).runner
    const id = await dying.enqueue(app.db, { kind, tenantId: null })
    const t0 = later(new Date(), 1)

    const stuck = dying.runDue({ now: t0 })
    while (started.length === 0) await sleep(5)
    // Within the lease the job is the first runner's…
    expect((await rescuer.runDue({ now: later(t0, LEASE_MS - 1) })).done).toBe(0)
    // …after it, anyone's: the first runner is presumed dead.
    expect((await rescuer.runDue({ now: later(t0, LEASE_MS) })).done).toBe(1)
    expect(started).toEqual(['dying:1', 'rescuer:2'])
    release()
    await stuck
    expect((await jobRow(id)).done_at).toBeInstanceOf(Date)
  })

  it('a live runner renews the lease of its jobs in hand: nobody takes over a slow handler', async () => {
    const lease = 3_000
    let release: () => void = () => {}
    const slow = new Promise<void>((resolve) => {
      release = resolve
    })
    const started: string[] = []
    const kind = `test.kind_${++kinds}`
    const worker = new JobRunner(app.db, app.log, { leaseMs: lease })
    worker.register(kind, async (job) => {
      started.push(`worker:${job.attempt}`)
      await slow
      return undefined
    })
    const rescuer = new JobRunner(app.db, app.log, { leaseMs: lease })
    rescuer.register(kind, async (job) => {
      started.push(`rescuer:${job.attempt}`)
      return undefined
    })
    const id = await worker.enqueue(app.db, { kind, tenantId: null })
    const working = worker.runDue()
    while (started.length === 0) await sleep(5)
    // Over twice the lease, on the real clock: the heartbeat keeps the job the worker's.
    const until = Date.now() + 2.5 * lease
    while (Date.now() < until) {
      expect((await rescuer.runDue()).done).toBe(0)
      await sleep(200)
    }
    expect((await jobRow(id)).run_at.getTime()).toBeGreaterThan(Date.now())
    release()
    expect((await working).done).toBe(1)
    expect(started).toEqual(['worker:1'])
    expect(await jobRow(id)).toMatchObject({ done_at: expect.any(Date), claimed_by: null })
  }, 60_000)

  it('stop() ends a batch after the job in hand and hands the rest back, due at once', async () => {
    let release: () => void = () => {}
    const holding = new Promise<void>((resolve) => {
      release = resolve
    })
    const ran: number[] = []
    const { runner, kind } = runnerFor(async (job) => {
      ran.push(job.payload.n as number)
      await holding
      return undefined
    })
    const ids = []
    for (const n of [1, 2, 3]) {
      ids.push(await runner.enqueue(app.db, { kind, tenantId: null, payload: { n } }))
    }
    const batch = runner.runDue({ now: later(new Date(), 1_000) })
    while (ran.length === 0) await sleep(5)
    const stopping = runner.stop()
    release()
    await stopping
    expect(await batch).toEqual({ done: 1, rescheduled: 0, failed: 0 })
    expect(ran).toHaveLength(1)
    const rest = await Promise.all(ids.map(jobRow))
    const waiting = rest.filter((row) => row.done_at === null)
    expect(waiting).toHaveLength(2)
    for (const row of waiting) {
      expect(row).toMatchObject({ claimed_by: null, attempts: 0 })
      expect(row.run_at.getTime()).toBeLessThanOrEqual(Date.now() + 1_000)
    }
  })

  it('the poll loop runs due jobs by itself, and stop() waits for the job in hand', async () => {
    let finished = 0
    const { runner, kind } = runnerFor(async () => {
      await sleep(50)
      finished++
      return undefined
    })
    const first = await runner.enqueue(app.db, { kind, tenantId: null })
    runner.start(10)
    // No count of its own: the test's timeout is the only limit on a busy machine.
    while (!(await jobRow(first)).done_at) await sleep(10)
    expect((await jobRow(first)).done_at).toBeInstanceOf(Date)

    const second = await runner.enqueue(app.db, { kind, tenantId: null })
    while ((await jobRow(second)).attempts === 0) await sleep(5)
    await runner.stop()
    expect(finished).toBe(2)
    expect((await jobRow(second)).done_at).toBeInstanceOf(Date)
    // Stopped for good: new jobs wait for another runner.
    const third = await runner.enqueue(app.db, { kind, tenantId: null })
    await sleep(50)
    expect((await jobRow(third)).attempts).toBe(0)
  })

  it('a release leaves alone a job another runner claimed after the lease ran out', async () => {
    const kind = `test.kind_${++kinds}`
    let release: () => void = () => {}
    const hanging = new Promise<void>((resolve) => {
      release = resolve
    })
    let calls = 0
    const slow = runnerFor(async () => {
      calls++
      await hanging
      return undefined
    }, kind).runner
    await slow.enqueue(app.db, { kind, tenantId: null })
    await sleep(2)
    const second = await slow.enqueue(app.db, { kind, tenantId: null })

    const batch = slow.runDue({ limit: 2 })
    while (calls === 0) await sleep(5)
    // What another runner's claim of the second job, once the lease ran out, leaves behind.
    const theirs = later(new Date(), LEASE_MS * 2)
    const other = '00000000-0000-4000-8000-000000000001'
    await app.db
      .updateTable('jobs')
      .set((eb) => ({ run_at: theirs, attempts: eb('attempts', '+', 1), claimed_by: other }))
      .where('id', '=', second)
      .execute()
    await slow.stop()
    release()
    await batch
    // The stop hands back only what is still this runner's: the other runner's claim stands.
    expect(await jobRow(second)).toMatchObject({
      run_at: theirs,
      attempts: 2,
      done_at: null,
      claimed_by: other,
    })
  })

  it('app.jobs is the app’s runner, and the poll loop is off in tests (JOBS_POLL_MS=0)', async () => {
    expect(app.jobs).toBeInstanceOf(JobRunner)
    const kind = `test.kind_${++kinds}`
    let ran = 0
    app.jobs.register(kind, async () => {
      ran++
      return undefined
    })
    await app.jobs.enqueue(app.db, { kind, tenantId: null })
    await sleep(100)
    expect(ran).toBe(0)
    await app.jobs.runDue()
    expect(ran).toBe(1)
  })
})
