import { readdir, readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { type Kysely, sql } from 'kysely'
import { serverFile } from '../../paths.ts'

const MIGRATIONS_DIR = serverFile('db/migrations/')

/** Any constant works; it only has to be the same for every instance of the server. */
const MIGRATION_LOCK = 727_001

export interface Migration {
  version: number
  name: string
  sql: string
}

export async function readMigrations(dir = MIGRATIONS_DIR): Promise<Migration[]> {
  const files = (await readdir(dir)).filter((file) => /^\d{4}_[\w-]+\.sql$/.test(file)).sort()
  return Promise.all(
    files.map(async (file) => ({
      version: Number(file.slice(0, 4)),
      name: file.slice(5, -4),
      sql: await readFile(join(dir, file), 'utf8'),
    })),
  )
}

/**
 * Applies the numbered SQL files not applied yet, all in one transaction: the
 * schema moves to the new version whole or not at all. The advisory lock lets
 * several servers boot against one PostgreSQL at once.
 */
// biome-ignore lint/suspicious/noExplicitAny: runs before any table type is known
export async function migrate(db: Kysely<any>, migrations?: Migration[]): Promise<number[]> {
  const pending = migrations ?? (await readMigrations())
  return db.transaction().execute(async (trx) => {
    await sql`select pg_advisory_xact_lock(${MIGRATION_LOCK})`.execute(trx)
    await sql`
      create table if not exists schema_migrations (
        version integer primary key,
        name text not null,
        applied_at timestamptz not null default now()
      )`.execute(trx)
    const { rows } = await sql<{ version: number }>`select version from schema_migrations`.execute(
      trx,
    )
    const applied = new Set(rows.map((row) => Number(row.version)))
    const done: number[] = []
    for (const migration of pending) {
      if (applied.has(migration.version)) continue
      await sql.raw(migration.sql).execute(trx)
      await sql`insert into schema_migrations (version, name) values (${migration.version}, ${migration.name})`.execute(
        trx,
      )
      done.push(migration.version)
    }
    return done
  })
}

/**
 * The versions among `versions` the database has not applied: none means the schema is
 * what this build needs (a schema ahead of it — a newer node migrated during a rolling
 * deploy — still serves it). Throws when the database does not answer.
 */
// biome-ignore lint/suspicious/noExplicitAny: reads only schema_migrations
export async function pendingMigrations(db: Kysely<any>, versions: number[]): Promise<number[]> {
  const { rows } = await sql<{ version: number }>`
    select version from schema_migrations where version = any(${versions}::int[])`.execute(db)
  const applied = new Set(rows.map((row) => Number(row.version)))
  return versions.filter((version) => !applied.has(version))
}
