import type { FastifyInstance } from 'fastify'
import { sql } from 'kysely'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { insertGeneratedTransactions } from '../domain/transactions/transaction-fixtures.ts'
import { createTestApp, describeServer, walletWithRecords } from '../test-support.ts'
import { ensurePending } from './periodic-jobs.ts'
import { ANALYZE_AGAIN_AFTER_MS, ANALYZE_JOB, analyzeChangedTables } from './statistics.ts'

/** When a table was last analysed, by anyone (the server, or PostgreSQL's autovacuum). */
async function lastAnalyzed(app: FastifyInstance, table: string): Promise<Date | null> {
  const { rows } = await sql<{ at: Date | null }>`
    select greatest(last_analyze, last_autoanalyze) as at
    from pg_stat_user_tables where relname = ${table}`.execute(app.db)
  return rows[0]?.at ?? null
}

/** The plan of a wallet's first history page, as the history query asks for it. */
async function firstPagePlan(app: FastifyInstance, walletId: string): Promise<string> {
  const { rows } = await sql<{ 'QUERY PLAN': string }>`
    explain select t.id from wallet_transactions t
    join currencies c on c.uuid = t.currency_uuid
    where t.wallet_id = ${walletId}::uuid
    order by t.created_at desc, t.id desc limit 11`.execute(app.db)
  return rows.map((row) => row['QUERY PLAN']).join('\n')
}

/** Waits until the statistics count `rows` written to `table` since its ANALYZE (PostgreSQL reports within seconds). */
async function changesCounted(app: FastifyInstance, table: string, rows: number) {
  const deadline = Date.now() + 30_000
  for (;;) {
    const { rows: found } = await sql<{ changed: string }>`
      select n_mod_since_analyze as changed from pg_stat_user_tables where relname = ${table}`.execute(
      app.db,
    )
    if (Number(found[0]?.changed ?? 0) >= rows) return
    if (Date.now() > deadline) throw new Error(`${table}: ${rows} changes never counted`)
    await new Promise((resolve) => setTimeout(resolve, 250))
  }
}

describeServer('statistics: the server keeps the planner informed', () => {
  let app: FastifyInstance
  beforeAll(async () => {
    // An empty database the app migrates, as at a first start: the analyse after the
    // migrations is under test, and a template's copy brings no activity counters.
    app = await createTestApp({}, { fresh: true })
  })
  afterAll(() => app?.close())

  it('a periodic job has one pending row, however many servers start at once', async () => {
    const kind = 'test.periodic'
    await Promise.all([1, 2, 3].map(() => ensurePending(app.db, app.jobs, kind, new Date())))
    const rows = await app.db
      .selectFrom('jobs')
      .select('id')
      .where('kind', '=', kind)
      .where('done_at', 'is', null)
      .execute()
    expect(rows).toHaveLength(1)
  })

  it('analyses the database once its migrations ran', async () => {
    // The catalogue was loaded by a migration: analysed with it, not left to a guess.
    expect(await lastAnalyzed(app, 'currencies')).not.toBeNull()
  })

  it('leaves every jsonb column out of ANALYZE: documents nothing filters on, and the slowest to measure', async () => {
    const { rows: measured } = await sql<{ column: string }>`
      select c.relname || '.' || a.attname as column
      from pg_attribute a
      join pg_class c on c.oid = a.attrelid
      join pg_namespace n on n.oid = c.relnamespace
      where n.nspname = 'public' and c.relkind = 'r' and not a.attisdropped
        and a.atttypid = 'jsonb'::regtype and coalesce(a.attstattarget, -1) <> 0`.execute(app.db)
    expect(measured.map((row) => row.column)).toEqual([])
  })

  it('a history grown past the threshold is analysed by the job, and its first page comes off the index', async () => {
    const { scope } = await walletWithRecords(app)
    await insertGeneratedTransactions(app.db, scope, 20_000, { analyze: false })
    const before = await lastAnalyzed(app, 'wallet_transactions')
    // The job's round, through the runner, until the table's changes are counted
    // (PostgreSQL reports a backend's counts to the statistics within seconds).
    const deadline = Date.now() + 30_000
    for (;;) {
      await app.jobs.enqueue(app.db, { kind: ANALYZE_JOB, tenantId: null })
      await app.jobs.runDue()
      const after = await lastAnalyzed(app, 'wallet_transactions')
      if (after && (!before || after > before)) break
      if (Date.now() > deadline) throw new Error('wallet_transactions was never analysed')
      await new Promise((resolve) => setTimeout(resolve, 250))
    }
    expect(await firstPagePlan(app, scope.walletId)).toMatch(
      /Index Scan using wallet_transactions_history/,
    )
    // Nothing changed since: the next round analyses nothing.
    expect(await analyzeChangedTables(app.db)).not.toContain('public.wallet_transactions')
  })

  it('a table analysed in the last minute waits for the next unless it doubled (on PGlite an ANALYZE holds every request)', async () => {
    // A table of its own: no other test's writes are reported to it late.
    await sql`create table statistics_pacing (id int primary key, note text)`.execute(app.db)
    const fill = async (from: number, count: number) => {
      await sql`insert into statistics_pacing
        select n, repeat('x', 40) from generate_series(${from}::int, ${from + count - 1}::int) n`.execute(
        app.db,
      )
      await changesCounted(app, 'statistics_pacing', count)
    }
    try {
      await fill(1, 20_000)
      const before = new Date(Date.now() - 1_000)
      await sql`analyze statistics_pacing`.execute(app.db)
      // PostgreSQL reports the ANALYZE to the statistics within seconds.
      const seen = Date.now() + 30_000
      while (((await lastAnalyzed(app, 'statistics_pacing')) ?? before) <= before) {
        if (Date.now() > seen) throw new Error('the ANALYZE was never reported')
        await new Promise((resolve) => setTimeout(resolve, 250))
      }
      // A fifth more: past the 10 % rule, short of doubling.
      await fill(20_001, 4_000)
      const now = new Date()
      expect(await analyzeChangedTables(app.db, now)).not.toContain('public.statistics_pacing')
      const aMinuteOn = new Date(now.getTime() + ANALYZE_AGAIN_AFTER_MS + 1_000)
      expect(await analyzeChangedTables(app.db, aMinuteOn)).toContain('public.statistics_pacing')

      // Doubled since: at once, however recently it was analysed.
      await fill(24_001, 30_000)
      expect(await analyzeChangedTables(app.db, new Date())).toContain('public.statistics_pacing')
    } finally {
      await sql`drop table statistics_pacing`.execute(app.db)
    }
  })

  it('a table grown while the write counters were lost (a restart) is analysed by its size', async () => {
    const { scope } = await walletWithRecords(app)
    // PostgreSQL's autovacuum would measure the table first (relpages), and find it grown by nothing.
    await sql`alter table wallet_transactions set (autovacuum_enabled = off)`.execute(app.db)
    await analyzeChangedTables(app.db)
    await insertGeneratedTransactions(app.db, scope, 30_000, { analyze: false })
    // What a restart does to the counters: PGlite keeps none across a stop.
    await sql`select pg_stat_reset()`.execute(app.db)
    expect(await analyzeChangedTables(app.db)).toContain('public.wallet_transactions')
    expect(await firstPagePlan(app, scope.walletId)).toMatch(
      /Index Scan using wallet_transactions_history/,
    )
  })
})
