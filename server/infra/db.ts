import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'
import { type Kysely, sql } from 'kysely'
import type { Config } from '../config.ts'
import { acquireDataDirLock, isEmbeddedOnDisk } from './db/data-dir-lock.ts'
import { openDatabase } from './db/database.ts'
import { migrate } from './db/migrate.ts'
import type { DB } from './db/schema.ts'
import { ensureDemoTenant } from './db/seed.ts'

declare module 'fastify' {
  interface FastifyInstance {
    db: Kysely<DB>
  }
}

/**
 * Opens the database, brings the schema up to date, and closes it with the
 * app. The embedded one on disk is locked for as long (data-dir-lock.ts), so
 * the tenant CLI cannot open it beside the server.
 */
export default fp(
  async function db(app: FastifyInstance, opts: { config: Config }) {
    const lock = isEmbeddedOnDisk(opts.config.databaseUrl)
      ? acquireDataDirLock(opts.config.dataDir, 'the server')
      : undefined
    let database: Awaited<ReturnType<typeof openDatabase>>
    try {
      database = await openDatabase({
        ...opts.config,
        onIdleError: (error) => app.log.warn({ err: error }, 'idle database connection failed'),
      })
    } catch (error) {
      lock?.release()
      throw error
    }
    app.addHook('onClose', async () => {
      await database.close()
      lock?.release()
    })
    const applied = await migrate(database.db)
    if (applied.length > 0) {
      app.log.info({ applied, engine: database.engine }, 'migrations applied')
      // Fresh statistics for the tables the migrations made or filled (PGlite
      // has no autovacuum; later growth is the statistics plugin's job).
      await sql`analyze`.execute(database.db)
    }
    await ensureDemoTenant(database.db)
    app.decorate('db', database.db)
  },
  { name: 'db' },
)
