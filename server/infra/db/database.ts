import { join } from 'node:path'
import { PGlite } from '@electric-sql/pglite'
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm'
import { Kysely, PostgresDialect } from 'kysely'
import pg from 'pg'
import { type ChannelListener, listenPostgres } from './listener.ts'
import { PGliteDialect } from './pglite-dialect.ts'
import { DataDirectory } from './pglite-files.ts'
import type { DB } from './schema.ts'
import { publishStatement } from './statements.ts'

export type Engine = 'pglite' | 'postgres'

/** What node-postgres hands over of a NOTICE the server sent (RAISE NOTICE). */
interface Notice {
  message?: string | undefined
  detail?: string | undefined
}

export interface Database {
  db: Kysely<DB>
  engine: Engine
  /**
   * Hears what is sent on `channel` (pg_notify), until the function it
   * resolves to is called. PGlite: in-process, heard as the sending
   * transaction commits, never lost. PostgreSQL: on a connection of its own
   * to `databaseDirectUrl` (else `databaseUrl`), and, at once, the NOTICE a
   * trigger raises under the channel's name on this process's own
   * connections (migration 0036): what this process itself wrote.
   */
  listen(channel: string, on: ChannelListener): Promise<() => Promise<void>>
  close(): Promise<void>
}

/**
 * Both engines hand back the same JS values: int8, numeric and date stay
 * strings (money and counts never pass through a float; a date is not a
 * moment in time), timestamps become Date.
 */
const AS_TEXT = [20, 1700, 1082] as const // int8, numeric, date
const identity = (value: string) => value

/**
 * The PostgreSQL extensions the migrations create, as PGlite loads them (a
 * PostgreSQL server ships them in its contrib): trigrams for the activity
 * search (migration 0032).
 */
export const PGLITE_EXTENSIONS = { pg_trgm }

export async function openDatabase(options: {
  databaseUrl: string | undefined
  dataDir: string
  /** Errors of idle pooled connections (a server restart, a dropped link). */
  onIdleError?: (error: Error) => void
  /** PGlite only: start from this dump of a data directory (PGlite's dumpDataDir). */
  loadDataDir?: Blob
  /** PostgreSQL: the primary itself, not through PgBouncer, for listen(). */
  databaseDirectUrl?: string | undefined
  /** PostgreSQL: names the listening connection (`<node>: listen <channel>`). */
  nodeName?: string
}): Promise<Database> {
  const { databaseUrl, dataDir } = options
  if (databaseUrl?.startsWith('postgres')) {
    const notices = new Set<(notice: Notice) => void>()
    const db = openPostgres(databaseUrl, options.onIdleError, (notice) => {
      for (const hear of notices) hear(notice)
    })
    const listenUrl = options.databaseDirectUrl ?? databaseUrl
    return {
      db,
      engine: 'postgres',
      async listen(channel, on) {
        const hear = (notice: Notice) => {
          if (notice.message === channel && notice.detail) on.notification(notice.detail)
        }
        notices.add(hear)
        const name = `${options.nodeName ?? 'finplatform'}: listen ${channel}`
        const listener = listenPostgres(listenUrl, channel, on, name)
        return async () => {
          notices.delete(hear)
          await listener.close()
        }
      },
      close: () => db.destroy(),
    }
  }

  const pglite = await PGlite.create({
    // On disk: PGlite's Node file system, with the sizes of files remembered (pglite-files.ts).
    ...(databaseUrl !== 'memory://' && { fs: new DataDirectory(join(dataDir, 'pgdata')) }),
    loadDataDir: options.loadDataDir,
    extensions: PGLITE_EXTENSIONS,
    parsers: Object.fromEntries(AS_TEXT.map((oid) => [oid, identity])),
  })
  const db = new Kysely<DB>({ dialect: new PGliteDialect(pglite), log: publishStatement })
  return {
    db,
    engine: 'pglite',
    async listen(channel, on) {
      // Under the driver's lock: a LISTEN sent while a request holds a transaction
      // open would run inside it (pglite-dialect.ts).
      const stop = await db
        .connection()
        .execute(() => pglite.listen(channel, (payload) => on.notification(payload)))
      on.listening()
      return () => db.connection().execute(() => stop())
    },
    close: () => db.destroy(),
  }
}

/**
 * A pool of node-postgres connections as Kysely. Fit for PgBouncer in transaction
 * pooling: node-postgres names a prepared statement only when a query asks for one by
 * name, and nothing here does; nothing sets session state (docs/decisions.md, issue 19).
 */
export function openPostgres(
  url: string,
  onIdleError?: (error: Error) => void,
  onNotice?: (notice: Notice) => void,
): Kysely<DB> {
  const pool = new pg.Pool({
    connectionString: url,
    max: 10,
    types: {
      getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
        (AS_TEXT as readonly number[]).includes(oid)
          ? identity
          : pg.types.getTypeParser(oid, format as 'text')) as typeof pg.types.getTypeParser,
    },
  })
  // Without a listener, an idle connection the server drops would crash the
  // process; the pool replaces it on the next checkout.
  pool.on('error', (error) => onIdleError?.(error))
  if (onNotice) pool.on('connect', (client) => client.on('notice', onNotice))
  return new Kysely<DB>({ dialect: new PostgresDialect({ pool }), log: publishStatement })
}
