import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'
import type { Kysely } from 'kysely'
import type { Config } from '../config.ts'
import { openDatabase } from './db/database.ts'
import { migrate } from './db/migrate.ts'
import type { DB } from './db/schema.ts'
import { ensureDemoTenant } from './db/seed.ts'

declare module 'fastify' {
  interface FastifyInstance {
    db: Kysely<DB>
  }
}

/** Opens the database, brings the schema up to date, and closes it with the app. */
export default fp(
  async function db(app: FastifyInstance, opts: { config: Config }) {
    const database = await openDatabase({
      ...opts.config,
      onIdleError: (error) => app.log.warn({ err: error }, 'idle database connection failed'),
    })
    app.addHook('onClose', () => database.close())
    const applied = await migrate(database.db)
    if (applied.length > 0) app.log.info({ applied, engine: database.engine }, 'migrations applied')
    await ensureDemoTenant(database.db)
    app.decorate('db', database.db)
  },
  { name: 'db' },
)
