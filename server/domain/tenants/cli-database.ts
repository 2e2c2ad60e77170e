import { type Kysely, sql } from 'kysely'
import {
  acquireDataDirLock,
  type DataDirLock,
  DataDirLockedError,
  isEmbeddedOnDisk,
} from '../../infra/db/data-dir-lock.ts'
import { type Database, openDatabase } from '../../infra/db/database.ts'
import { type Migration, migrate, readMigrations } from '../../infra/db/migrate.ts'
import type { DB } from '../../infra/db/schema.ts'
import { CliRefusal } from './cli.ts'

/**
 * Where the schema stands against this checkout's migrations: `pending` are
 * this checkout's versions not applied yet, `unknown` applied versions this
 * checkout does not have (the database is newer than the code).
 */
export async function schemaStatus(
  db: Kysely<DB>,
  migrations: readonly Migration[],
): Promise<{ pending: number[]; unknown: number[] }> {
  const { rows: exists } = await sql<{
    table: string | null
  }>`select to_regclass('schema_migrations')::text as table`.execute(db)
  const applied = new Set<number>()
  if (exists[0]?.table) {
    const { rows } = await sql<{ version: number }>`select version from schema_migrations`.execute(
      db,
    )
    for (const row of rows) applied.add(Number(row.version))
  }
  const known = new Set(migrations.map((migration) => migration.version))
  return {
    pending: migrations.map((m) => m.version).filter((version) => !applied.has(version)),
    unknown: [...applied].filter((version) => !known.has(version)).sort((a, b) => a - b),
  }
}

/**
 * The CLI's database: DATABASE_URL's, else the embedded one in DATA_DIR,
 * locked against the server (or another CLI) for as long as it is open.
 * The CLI never changes the schema on its own: a schema behind this
 * checkout is refused unless `migrate` (--migrate) says to bring it up to
 * date — an old server may be running on it — and one ahead is always refused.
 * @throws CliRefusal
 */
export async function openCliDatabase(options: {
  databaseUrl: string | undefined
  dataDir: string
  migrate: boolean
  migrations?: Migration[]
}): Promise<Database> {
  let lock: DataDirLock | undefined
  if (isEmbeddedOnDisk(options.databaseUrl)) {
    try {
      lock = acquireDataDirLock(options.dataDir, 'the tenant CLI')
    } catch (error) {
      if (error instanceof DataDirLockedError) throw new CliRefusal(error.message)
      throw error
    }
  }
  let database: Database | undefined
  try {
    database = await openDatabase(options)
    const migrations = options.migrations ?? (await readMigrations())
    const status = await schemaStatus(database.db, migrations)
    if (status.unknown.length > 0) {
      throw new CliRefusal(
        `The database has migrations this checkout does not know (${status.unknown.join(', ')}): use the checkout the server runs.`,
      )
    }
    if (status.pending.length > 0) {
      if (!options.migrate) {
        throw new CliRefusal(
          `The database schema is behind this checkout (not applied: ${status.pending.join(', ')}). ` +
            'Start the server of this version (it migrates), or pass --migrate to apply them now.',
        )
      }
      await migrate(database.db, migrations)
    }
  } catch (error) {
    await database?.close()
    lock?.release()
    throw error
  }
  const opened = database
  return {
    ...opened,
    close: async () => {
      try {
        await opened.close()
      } finally {
        lock?.release()
      }
    },
  }
}
