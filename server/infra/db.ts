import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'
import { type Kysely, sql } from 'kysely'
import { Counter, Gauge } from 'prom-client'
import type { Config } from '../config.ts'
import { acquireDataDirLock, isEmbeddedOnDisk } from './db/data-dir-lock.ts'
import { type Database, openDatabase, openPostgres } from './db/database.ts'
import { migrate } from './db/migrate.ts'
import { type ReplicaLag, replicaLag } from './db/replica-lag.ts'
import type { DB } from './db/schema.ts'

/** Runs a read with the service built on the replica, or on the primary when the replica misses. */
export type LagTolerant<S> = <T>(use: (service: S) => Promise<T>) => Promise<T>

declare module 'fastify' {
  interface FastifyInstance {
    /** The primary: every write, and every read of what a person has just written. */
    db: Kysely<DB>
    /**
     * Reads that tolerate a little lag (history pages, the activity feed, CSV exports, the
     * catalogue): the replica of DATABASE_REPLICA_URL, else the primary itself. Never
     * written through, and never read here right after writing (balances after an order,
     * the order itself, a card after its issue stay on `db`).
     */
    dbRead: Kysely<DB>
    /**
     * A service built twice, on `dbRead` and on `db`: a read runs on the replica, and
     * when it fails with a miss (`isMiss`: a wallet, card or item not found) it runs
     * once more on the primary — the row may have been written a moment ago and not
     * have arrived yet. Without a replica, one service on the primary.
     */
    lagTolerant<S>(make: (db: Kysely<DB>) => S, isMiss: (error: unknown) => boolean): LagTolerant<S>
    /** Hears a channel of the primary (database.ts `listen`): what other processes must know at once. */
    dbListen: Database['listen']
  }
}

/**
 * Opens the database (and its replica, when configured), brings the schema up
 * to date, and closes both with the app. The embedded one on disk is locked
 * for as long (data-dir-lock.ts), so the tenant CLI cannot open it beside the server.
 */
export default fp(
  async function db(app: FastifyInstance, opts: { config: Config; database?: Database }) {
    const { config } = opts
    const lock = isEmbeddedOnDisk(config.databaseUrl)
      ? acquireDataDirLock(config.dataDir, 'the server')
      : undefined
    const onIdleError = (error: Error) =>
      app.log.warn({ err: error }, 'idle database connection failed')
    let database: Awaited<ReturnType<typeof openDatabase>>
    try {
      database = opts.database ?? (await openDatabase({ ...config, onIdleError }))
    } catch (error) {
      lock?.release()
      throw error
    }
    const replica = config.databaseReplicaUrl
      ? openPostgres(config.databaseReplicaUrl, onIdleError)
      : undefined
    app.addHook('onClose', async () => {
      await Promise.all([database.close(), replica?.destroy()])
      lock?.release()
    })
    // Several nodes starting at once: one applies the migrations, the others wait for its
    // transaction-scoped advisory lock, then find nothing left to do (migrate.ts).
    const applied = await migrate(database.db)
    if (applied.length > 0) {
      app.log.info({ applied, engine: database.engine }, 'migrations applied')
      // Fresh statistics for the tables the migrations made or filled (PGlite
      // has no autovacuum; later growth is the statistics plugin's job).
      await sql`analyze`.execute(database.db)
    }

    const primary = database.db
    const reads = replica ?? primary
    app.decorate('db', primary)
    app.decorate('dbRead', reads)
    app.decorate('dbListen', database.listen)

    const misses = new Counter({
      name: 'db_replica_misses_total',
      help: 'Lag-tolerant reads the replica could not answer (not there yet), asked again of the primary',
      registers: [app.metrics.registry],
    })
    app.decorate(
      'lagTolerant',
      <S>(make: (db: Kysely<DB>) => S, isMiss: (e: unknown) => boolean) => {
        const onReplica = make(reads)
        const onPrimary = replica ? make(primary) : undefined
        return async <T>(use: (service: S) => Promise<T>): Promise<T> => {
          try {
            return await use(onReplica)
          } catch (error) {
            if (!onPrimary || !isMiss(error)) throw error
            misses.inc()
            return use(onPrimary)
          }
        }
      },
    )

    if (replica) replicaMetrics(app, primary, replica)
  },
  { name: 'db', dependencies: ['metrics'] },
)

/**
 * The replica's lag, measured when /metrics is scraped: bytes of WAL not replayed yet and
 * how old its view is, and whether it answered at all (a down replica fails every
 * lag-tolerant read, so it must page someone). NaN while the replica is not a standby.
 */
function replicaMetrics(app: FastifyInstance, primary: Kysely<DB>, replica: Kysely<DB>) {
  // One measurement per scrape, shared by the three gauges (each collects on its own).
  let measuring: Promise<ReplicaLag | undefined | null> | undefined
  const measure = () => {
    measuring ??= withTimeout(replicaLag(primary, replica), 2_000)
      .catch((error) => {
        app.log.warn({ err: error }, 'replica lag could not be measured')
        return null
      })
      .finally(() => setImmediate(() => (measuring = undefined)))
    return measuring
  }
  const registers = [app.metrics.registry]
  new Gauge({
    name: 'db_replica_up',
    help: '1 when the read replica answered the last lag measurement, else 0',
    registers,
    async collect() {
      this.set((await measure()) === null ? 0 : 1)
    },
  })
  new Gauge({
    name: 'db_replica_lag_seconds',
    help: 'How old the read replica’s view is: 0 when it has replayed all the primary wrote',
    registers,
    async collect() {
      this.set((await measure())?.seconds ?? Number.NaN)
    },
  })
  new Gauge({
    name: 'db_replica_lag_bytes',
    help: 'WAL the primary has written that the read replica has not replayed yet',
    registers,
    async collect() {
      this.set((await measure())?.bytes ?? Number.NaN)
    },
  })
}

function withTimeout<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer in ${ms} ms`)), ms)
  })
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer))
}
