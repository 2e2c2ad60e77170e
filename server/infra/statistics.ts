import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'
import { type Kysely, sql } from 'kysely'
import type { Config } from '../config.ts'
import type { DB } from './db/schema.ts'
import { runPeriodically } from './periodic-jobs.ts'

/** The job that keeps the planner's statistics current. */
export const ANALYZE_JOB = 'db.analyze'

/** How often the job looks for tables that changed enough to be analysed again. */
export const ANALYZE_EVERY_MS = 10_000

/**
 * The tables that changed enough since their last ANALYZE, then ANALYZEs
 * each; answers them. Changed enough, by PostgreSQL's own autovacuum rule:
 * more rows written since than 50 plus 10 % of the table — or, as the write
 * counters do not outlive a restart (PGlite loses them at every stop), a
 * table grown by over 10 % (plus 8 pages) on disk since its last ANALYZE
 * measured it: what a restart hides, its size still tells. And, like
 * autovacuum, which visits a database once a minute, a table analysed in
 * the last minute waits for the next — unless it doubled since (a bulk load,
 * a first history): under steady writes every table is due every round, and
 * on PGlite each ANALYZE holds the one connection every request waits for
 * (ten tables, about 100 ms, issue 29).
 */
export async function analyzeChangedTables(db: Kysely<DB>, now = new Date()): Promise<string[]> {
  const { rows } = await sql<{ table: string }>`
    with t as (
      select quote_ident(s.schemaname) || '.' || quote_ident(s.relname) as table,
        s.n_mod_since_analyze as changed,
        greatest(c.reltuples, 0) as tuples,
        pg_relation_size(c.oid) / current_setting('block_size')::int as pages,
        greatest(c.relpages, 0) as measured,
        greatest(s.last_analyze, s.last_autoanalyze) as analysed_at
      from pg_stat_user_tables s
      join pg_class c on c.oid = s.relid
    )
    select t.table from t
    where t.changed > 50 + t.tuples or t.pages > 2 * t.measured + 8
      or ((t.changed > 50 + 0.1 * t.tuples or t.pages > 1.1 * t.measured + 8)
        and (t.analysed_at is null
          or t.analysed_at < ${now}::timestamptz - make_interval(secs => ${ANALYZE_AGAIN_AFTER_MS / 1000})))
    order by t.changed desc`.execute(db)
  for (const { table } of rows) {
    // What arrived meanwhile is read before the next table: on PGlite an ANALYZE runs
    // in the server's own thread, and a round of them would be one long stall.
    await new Promise((resolve) => setImmediate(resolve))
    await sql`analyze ${sql.raw(table)}`.execute(db)
  }
  return rows.map((row) => row.table)
}

/** A table analysed this recently waits for the next round unless it doubled (autovacuum's naptime). */
export const ANALYZE_AGAIN_AFTER_MS = 60_000

/**
 * The planner's statistics, kept by the server. Embedded PGlite has no
 * autovacuum: without this it would plan every query on a never-analysed
 * table (a history page: every record of the wallet sorted, instead of the
 * first few read off the index). On PostgreSQL it does what autovacuum does,
 * within seconds of a bulk load instead of within its minute. The database
 * is analysed after migrations too (infra/db.ts).
 */
export default fp(
  async function statistics(app: FastifyInstance, opts: { config: Config }) {
    runPeriodically(app, opts.config.jobs.pollMs, {
      kind: ANALYZE_JOB,
      everyMs: ANALYZE_EVERY_MS,
      round: async (context) => {
        const analyzed = await analyzeChangedTables(context.db)
        if (analyzed.length > 0) context.log.debug({ tables: analyzed }, 'tables analysed')
        return undefined
      },
    })
  },
  { name: 'statistics', dependencies: ['db', 'jobs'] },
)
