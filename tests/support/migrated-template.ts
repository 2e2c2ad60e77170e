import { randomBytes } from 'node:crypto'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { PGlite } from '@electric-sql/pglite'
import { Kysely, sql } from 'kysely'
import pg from 'pg'
import type { TestProject } from 'vitest/node'
import { openPostgres, PGLITE_EXTENSIONS } from '../../server/infra/db/database.ts'
import { migrate } from '../../server/infra/db/migrate.ts'
import { PGliteDialect } from '../../server/infra/db/pglite-dialect.ts'

declare module 'vitest' {
  export interface ProvidedContext {
    /** server:pglite: a file holding the dump (dumpDataDir) of a migrated PGlite. */
    pgliteTemplate: string
    /** server:postgres: the name of a migrated database every test database copies. */
    postgresTemplate: string
  }
}

/**
 * The server tests' apps start from a database migrated once per run instead of
 * running every migration again (issue 18): on PostgreSQL a `CREATE DATABASE …
 * TEMPLATE` copy, on PGlite a data directory loaded at once (server/test-support.ts).
 * Both are made here, before any worker starts, so no two workers race to make them.
 * What the app does on a fresh database, done to the template: migrate, then analyse.
 */
// biome-ignore lint/suspicious/noExplicitAny: runs before any table type is known
async function migrateAndAnalyze(db: Kysely<any>) {
  await migrate(db)
  await sql`analyze`.execute(db)
}

/** globalSetup of the `server:pglite` project: the dump of a migrated PGlite, in a file. */
export default async function setup(project: TestProject) {
  const dir = mkdtempSync(join(tmpdir(), 'pglite-template-'))
  const file = join(dir, 'migrated.tar')
  const pglite = await PGlite.create({ extensions: PGLITE_EXTENSIONS })
  const db = new Kysely<unknown>({ dialect: new PGliteDialect(pglite) })
  try {
    await migrateAndAnalyze(db)
    const dump = await pglite.dumpDataDir('none')
    writeFileSync(file, Buffer.from(await dump.arrayBuffer()))
  } catch (error) {
    rmSync(dir, { recursive: true, force: true })
    throw error
  } finally {
    await db.destroy()
  }
  project.provide('pgliteTemplate', file)
  return () => rmSync(dir, { recursive: true, force: true })
}

/**
 * A migrated database in the PostgreSQL at `url`, for the test databases to copy
 * (tests/support/postgres-cluster.ts); drop() removes it. Nothing stays connected
 * to it: CREATE DATABASE … TEMPLATE refuses a template in use.
 */
export async function createPostgresTemplate(url: string) {
  const name = `template_${randomBytes(6).toString('hex')}`
  const admin = async (statement: string) => {
    const client = new pg.Client({ connectionString: url })
    await client.connect()
    try {
      await client.query(statement)
    } finally {
      await client.end()
    }
  }
  await admin(`create database ${name}`)
  const templateUrl = new URL(url)
  templateUrl.pathname = `/${name}`
  const db = openPostgres(templateUrl.toString())
  try {
    await migrateAndAnalyze(db)
  } finally {
    await db.destroy()
  }
  return { name, drop: () => admin(`drop database if exists ${name} with (force)`) }
}
