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
 * measured it: what a restart hides, its size still tells.
 */
export async function analyzeChangedTables(db: Kysely<DB>): Promise<string[]> {
  const { rows } = await sql<{ table: string }>`
    select quote_ident(s.schemaname) || '.' || quote_ident(s.relname) as table
    from pg_stat_user_tables s
    join pg_class c on c.oid = s.relid
    where s.n_mod_since_analyze > 50 + 0.1 * greatest(c.reltuples, 0)
      or pg_relation_size(c.oid) / current_setting('block_size')::int
        > 1.1 * greatest(c.relpages, 0) + 8
    order by s.n_mod_since_analyze desc`.execute(db)
  for (const { table } of rows) await sql`analyze ${sql.raw(table)}`.execute(db)
  return rows.map((row) => row.table)
}

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
