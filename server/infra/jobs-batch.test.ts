import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { createTestApp, describeServer } from '../test-support.ts'
import { statementsOf } from './db/statements.ts'
import { BATCH_LIMIT, backoffMs, JobRunner } from './jobs.ts'

const LEASE_MS = 60_000

/** Kinds whose due jobs reach one handler call together (the events' dispatch, issue 29). */
describeServer('the job runner: batch kinds', () => {
  let app: FastifyInstance
  beforeAll(async () => {
    app = await createTestApp()
  })
  afterAll(() => app?.close())

  let kinds = 0
  const jobRow = (id: string) =>
    app.db.selectFrom('jobs').selectAll().where('id', '=', id).executeTakeFirstOrThrow()
  const later = (base: Date, ms: number) => new Date(base.getTime() + ms)

  it('a batch kind’s due jobs reach its handler together, the longest due first, and are finished in one statement', async () => {
    const runner = new JobRunner(app.db, app.log, { leaseMs: LEASE_MS })
    const kind = `test.batch_${++kinds}`
    const calls: number[][] = []
    runner.registerBatch(kind, async (jobs) => {
      calls.push(jobs.map((job) => Number(job.payload.n)))
    })
    const now = new Date()
    for (let n = 5; n >= 1; n--) {
      await runner.enqueue(app.db, { kind, tenantId: null, payload: { n }, runAt: later(now, -n) })
    }
    const { result, statements } = await statementsOf(() => runner.runDue({ now }))
    expect(result).toEqual({ done: 5, rescheduled: 0, failed: 0 })
    expect(calls).toEqual([[5, 4, 3, 2, 1]])
    // The claim and the finish: nothing per job.
    expect(statements, statements.join('\n')).toHaveLength(2)
    const rows = await app.db.selectFrom('jobs').selectAll().where('kind', '=', kind).execute()
    expect(rows.map((row) => [row.attempts, row.claimed_by, row.done_at !== null])).toEqual(
      Array(5).fill([1, null, true]),
    )
    expect((await runner.runDue({ now })).done).toBe(0)
  })

  it('a batch that throws is run again a job at a time: one job that cannot succeed holds back only itself', async () => {
    const runner = new JobRunner(app.db, app.log, { leaseMs: LEASE_MS })
    const kind = `test.batch_${++kinds}`
    const calls: number[][] = []
    runner.registerBatch(kind, async (jobs) => {
      calls.push(jobs.map((job) => Number(job.payload.n)))
      if (jobs.some((job) => job.payload.n === 2)) throw new Error('cannot take 2')
    })
    const now = new Date()
    const ids = []
    for (const n of [1, 2, 3]) {
      ids.push(
        await runner.enqueue(app.db, {
          kind,
          tenantId: null,
          payload: { n },
          runAt: later(now, n - 10),
        }),
      )
    }
    expect(await runner.runDue({ now })).toEqual({ done: 2, rescheduled: 0, failed: 1 })
    expect(calls).toEqual([[1, 2, 3], [1], [2], [3]])
    const [one, two, three] = await Promise.all(ids.map(jobRow))
    expect(one!.done_at).toBeInstanceOf(Date)
    expect(three!.done_at).toBeInstanceOf(Date)
    expect(two).toMatchObject({ done_at: null, attempts: 1, last_error: 'Error: cannot take 2' })
    expect(two!.run_at.getTime()).toBe(now.getTime() + backoffMs(1))
  })

  it(`a batch is at most ${BATCH_LIMIT} jobs; the rest wait for the next round`, async () => {
    const runner = new JobRunner(app.db, app.log, { leaseMs: LEASE_MS })
    const kind = `test.batch_${++kinds}`
    const sizes: number[] = []
    runner.registerBatch(kind, async (jobs) => {
      sizes.push(jobs.length)
    })
    const now = new Date()
    await app.db
      .insertInto('jobs')
      .values(
        Array.from({ length: BATCH_LIMIT + 3 }, () => ({
          id: crypto.randomUUID(),
          kind,
          tenant_id: null,
          payload: '{}',
          run_at: later(now, -1),
        })),
      )
      .execute()
    expect((await runner.runDue({ now })).done).toBe(BATCH_LIMIT)
    expect((await runner.runDue({ now })).done).toBe(3)
    expect(sizes).toEqual([BATCH_LIMIT, 3])
  })

  it('a kind has one handler, single or batch', () => {
    const runner = new JobRunner(app.db, app.log, { leaseMs: LEASE_MS })
    runner.register('test.once', async () => undefined)
    expect(() => runner.registerBatch('test.once', async () => {})).toThrow('is registered')
    runner.registerBatch('test.twice', async () => {})
    expect(() => runner.register('test.twice', async () => undefined)).toThrow('is registered')
  })
})
