import { randomBytes } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import pg from 'pg'
import { inject } from 'vitest'
import { type Database, openDatabase } from './infra/db/database.ts'

/**
 * The databases server tests run on: the engine the vitest project names
 * (TEST_DB_ENGINE), the run's migrated template, and a database of one's own
 * on it (test-support.ts builds the app on one).
 */

type Engine = 'pglite' | 'postgres'

export const engine = (process.env.TEST_DB_ENGINE ?? 'pglite') as Engine
if (engine !== 'pglite' && engine !== 'postgres') {
  throw new Error(`TEST_DB_ENGINE must be pglite or postgres, got "${engine}"`)
}

/** The PostgreSQL server of the run; '' only when the machine has none and this is not CI. */
export const postgresUrl = engine === 'postgres' ? inject('databaseUrl') : undefined

/**
 * The run's migrated database (tests/support/migrated-template.ts), which every
 * test app starts from instead of running each migration again: a database name
 * on PostgreSQL, a data-directory dump on PGlite (read once per file).
 */
const postgresTemplate = engine === 'postgres' ? inject('postgresTemplate') : undefined
const pgliteTemplateFile = engine === 'pglite' ? inject('pgliteTemplate') : undefined
let pgliteTemplate: Promise<Blob> | undefined
export const migratedPglite = () => {
  pgliteTemplate ??= readFile(pgliteTemplateFile!).then((bytes) => new Blob([bytes]))
  return pgliteTemplate
}

/** A fresh, empty database on the engine under test, without the app; close() drops it. */
export async function createTestDatabase(): Promise<Database> {
  const place = await provision()
  const opened = await openDatabase(place).catch(async (error) => {
    await place.dispose()
    throw error
  })
  return {
    ...opened,
    close: async () => {
      await opened.close()
      await place.dispose()
    },
  }
}

/**
 * A temporary DATA_DIR and a database URL on the engine under test; dispose()
 * removes both. On PGlite, `memory://`, or with `onDisk` the database in
 * DATA_DIR (`''`), which outlives a process: a restart, or the real server
 * process run on it (orders/order-crash-fixtures.ts). Empty unless `migrated`:
 * then a copy of the run's template — on PostgreSQL a database copied from it,
 * on PGlite on disk written into DATA_DIR now (a second, not a migration run),
 * in memory loaded by createTestAppOn.
 */
export async function provision({ migrated = false, onDisk = false } = {}) {
  const database =
    engine === 'postgres'
      ? await createPostgresDatabase(migrated ? postgresTemplate : undefined)
      : undefined
  const dataDir = mkdtempSync(join(tmpdir(), 'server-test-'))
  const pgliteOnDisk = !database && onDisk
  if (pgliteOnDisk && migrated) {
    const seeded = await openDatabase({
      databaseUrl: '',
      dataDir,
      loadDataDir: await migratedPglite(),
    })
    await seeded.close()
  }
  return {
    dataDir,
    databaseUrl: database?.url ?? (pgliteOnDisk ? '' : 'memory://'),
    migrated,
    dispose: async () => {
      await database?.drop()
      rmSync(dataDir, { recursive: true, force: true })
    },
  }
}

async function createPostgresDatabase(template?: string) {
  if (!postgresUrl) {
    throw new Error('The server:postgres project has no PostgreSQL (see describeServer).')
  }
  const name = `t_${randomBytes(8).toString('hex')}`
  await admin((client) =>
    client.query(
      template ? `create database ${name} template ${template}` : `create database ${name}`,
    ),
  )
  const url = new URL(postgresUrl)
  url.pathname = `/${name}`
  return {
    url: url.toString(),
    // FORCE: a pool left open by a failed test must not keep the database alive.
    drop: () => admin((client) => client.query(`drop database if exists ${name} with (force)`)),
  }
}

/**
 * A copy of a database of the run's PostgreSQL, as it is now (CREATE DATABASE … TEMPLATE:
 * nothing may be connected to the original meanwhile); drop() removes it.
 */
export async function copyPostgresDatabase(url: string) {
  const source = new URL(url).pathname.slice(1)
  const name = `t_${randomBytes(8).toString('hex')}`
  await admin((client) => client.query(`create database ${name} template ${source}`))
  const copy = new URL(url)
  copy.pathname = `/${name}`
  return {
    url: copy.toString(),
    drop: () => admin((client) => client.query(`drop database if exists ${name} with (force)`)),
  }
}

async function admin(work: (client: pg.Client) => Promise<unknown>) {
  const client = new pg.Client({ connectionString: postgresUrl })
  await client.connect()
  try {
    await work(client)
  } finally {
    await client.end()
  }
}
