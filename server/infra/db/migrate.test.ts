import { tmpdir } from 'node:os'
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestDatabase, provision } from '../../test-databases.ts'
import {
  captureLogs,
  createTestAppOn,
  describeServer,
  signIn,
  signUp,
  uniqueEmail,
} from '../../test-support.ts'
import { type Database, openDatabase } from './database.ts'
import { type Migration, migrate, readMigrations } from './migrate.ts'

const probe = (version: number, statement: string): Migration => ({
  version,
  name: `probe_${version}`,
  sql: statement,
})

async function appliedVersions(database: Database) {
  const { rows } = await sql<{
    version: number
  }>`select version from schema_migrations order by version`.execute(database.db)
  return rows.map((row) => Number(row.version))
}

async function tableExists(database: Database, name: string) {
  const { rows } = await sql<{
    found: string | null
  }>`select to_regclass(${name})::text as found`.execute(database.db)
  return rows[0]?.found != null
}

describeServer('migrations', () => {
  let database: Database
  beforeAll(async () => {
    database = await createTestDatabase()
  })
  afterAll(() => database?.close())

  it('a fresh database gets every migration once, and a second run applies nothing', async () => {
    const files = await readMigrations()
    expect(files.length).toBeGreaterThan(0)

    expect(await migrate(database.db)).toEqual(files.map((file) => file.version))
    expect(await migrate(database.db)).toEqual([])
    expect(await appliedVersions(database)).toEqual(files.map((file) => file.version))
    expect(await tableExists(database, 'refresh_tokens')).toBe(true)
  })

  it('a failing migration leaves the schema as it was: all pending ones or none', async () => {
    const files = await readMigrations()
    await migrate(database.db)

    const attempt = migrate(database.db, [
      ...files,
      probe(9001, 'create table probe_before_failure (id int)'),
      probe(9002, 'select * from no_such_table'),
    ])

    await expect(attempt).rejects.toThrow(/no_such_table/)
    expect(await tableExists(database, 'probe_before_failure')).toBe(false)
    expect(await appliedVersions(database)).toEqual(files.map((file) => file.version))
  })

  it('two servers booting at once apply a new migration exactly once', async () => {
    const files = await readMigrations()
    await migrate(database.db)
    // The sleep keeps the first boot inside its transaction while the second one starts.
    const next = [
      ...files,
      probe(9101, 'select pg_sleep(0.2); create table probe_applied_once (id int)'),
    ]

    const results = await Promise.all([migrate(database.db, next), migrate(database.db, next)])

    expect(results.flat()).toEqual([9101])
    expect(await tableExists(database, 'probe_applied_once')).toBe(true)
  })
})

const onPostgres = process.env.TEST_DB_ENGINE === 'postgres'

// Several nodes on one PostgreSQL: PGlite is one process's own database.
if (onPostgres) {
  describeServer('nodes starting together on one PostgreSQL', () => {
    it('one applies the migrations while the other waits for it; then both serve', async () => {
      const place = await provision()
      const logs = [captureLogs(), captureLogs()]
      const started = await Promise.allSettled(
        logs.map((log, i) =>
          createTestAppOn(place, { NODE_NAME: `node-${i + 1}` }, { logStream: log.stream }),
        ),
      )
      const apps = started.flatMap((result) =>
        result.status === 'fulfilled' ? [result.value] : [],
      )
      try {
        expect(started.filter((result) => result.status === 'rejected')).toEqual([])
        const versions = (await readMigrations()).map((file) => file.version)
        const applied = logs.map((log) =>
          log.lines
            .map((line) => JSON.parse(line) as { msg: string; applied?: number[] })
            .filter((line) => line.msg === 'migrations applied'),
        )
        // Exactly one node applied them, all of them; the other found nothing left to do.
        expect(applied.map((lines) => lines.length).sort()).toEqual([0, 1])
        expect(applied.flat()[0]?.applied).toEqual(versions)
        const { rows } = await sql<{ version: number; times: number }>`
          select version, count(*)::int as times from schema_migrations
          group by version order by version`.execute(apps[0]!.db)
        expect(rows).toEqual(versions.map((version) => ({ version, times: 1 })))

        for (const [i, app] of apps.entries()) {
          const ready = await app.inject({ method: 'GET', url: '/readyz' })
          expect(ready.statusCode, ready.body).toBe(200)
          expect(ready.json()).toMatchObject({
            node: `node-${i + 1}`,
            schema: Math.max(...versions),
          })
        }
        // One database behind both: an account made through one node signs in through the other.
        const email = uniqueEmail('two-nodes')
        await signUp(apps[0]!, { email, kyc: false })
        expect((await signIn(apps[1]!, { email })).statusCode).toBe(200)
      } finally {
        await Promise.all(apps.map((app) => app.close()))
        await place.dispose()
      }
    })
  })
}

/**
 * The dialect itself, on a PGlite of its own in both projects: PGlite is one
 * session, so without the driver's mutex a second transaction (or a plain
 * query) would run inside the first one.
 */
describe('the PGlite dialect', () => {
  /** Lets the test start the second transaction only once the first holds the session. */
  const signal = () => {
    let inside!: () => void
    const firstIsInside = new Promise<void>((resolve) => {
      inside = resolve
    })
    return { inside, firstIsInside }
  }

  let pglite: Database
  beforeAll(async () => {
    pglite = await openDatabase({ databaseUrl: 'memory://', dataDir: tmpdir() })
  })
  afterAll(() => pglite?.close())

  it('a transaction waits for a concurrent one to commit, then sees its rows', async () => {
    await sql`create table probe_commit (name text)`.execute(pglite.db)
    const log: string[] = []
    const { inside, firstIsInside } = signal()

    const first = pglite.db.transaction().execute(async (trx) => {
      log.push('first: begun')
      inside()
      await sql`select pg_sleep(0.1)`.execute(trx)
      await sql`insert into probe_commit values ('first')`.execute(trx)
      log.push('first: inserted')
    })
    await firstIsInside
    const second = pglite.db.transaction().execute(async (trx) => {
      log.push('second: begun')
      const { rows } = await sql<{
        n: number
      }>`select count(*)::int as n from probe_commit`.execute(trx)
      log.push(`second: saw ${rows[0]?.n}`)
    })
    await Promise.all([first, second])

    expect(log).toEqual(['first: begun', 'first: inserted', 'second: begun', 'second: saw 1'])
  })

  it('neither a concurrent transaction nor a plain query sees rows that are then rolled back', async () => {
    await sql`create table probe_rollback (name text)`.execute(pglite.db)
    const log: string[] = []
    const { inside, firstIsInside } = signal()

    const first = pglite.db.transaction().execute(async (trx) => {
      log.push('first: begun')
      inside()
      await sql`insert into probe_rollback values ('first')`.execute(trx)
      await sql`select pg_sleep(0.1)`.execute(trx)
      log.push('first: failing')
      throw new Error('the use case failed')
    })
    await firstIsInside
    const second = pglite.db.transaction().execute(async (trx) => {
      log.push('second: begun')
      const { rows } = await sql<{
        n: number
      }>`select count(*)::int as n from probe_rollback`.execute(trx)
      log.push(`second: saw ${rows[0]?.n}`)
    })
    const plain = sql<{ n: number }>`select count(*)::int as n from probe_rollback`.execute(
      pglite.db,
    )

    await expect(first).rejects.toThrow('the use case failed')
    await second
    expect(log).toEqual(['first: begun', 'first: failing', 'second: begun', 'second: saw 0'])
    expect((await plain).rows[0]?.n).toBe(0)
  })
})
