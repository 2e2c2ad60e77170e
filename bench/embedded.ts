/**
 * What one statement costs the embedded database, and what the knobs change
 * (issue 29's fourth part: check durability, the file system and batching
 * before reading the server's figures). Each variant runs the same work in
 * this process, through the server's own driver (server/infra/db/pglite-dialect.ts,
 * prepared statements): a one-row primary-key read, an autocommitted insert,
 * the same with a foreign key to a parent of one page (a currency, the
 * tenant), and a transaction of eight inserts sent one by one and as one batch.
 *
 * - `memory`: no data directory (what the tests run).
 * - `on disk, PGlite's NodeFS`: a data directory on PGlite's own Node file system.
 * - `on disk as npm start`: the same, with the sizes of files remembered
 *   (server/infra/db/pglite-files.ts): the foreign key's check scans its
 *   parent, and every scan asks the file's size.
 * - `on disk as npm start, relaxedDurability`: PGlite's option to answer before its
 *   file system syncs. NodeFS writes through (its syncToFs does nothing) and
 *   PGlite runs PostgreSQL with fsync off, so this should change nothing: the
 *   row shows whether it does.
 */
import { PGlite, type PGliteOptions } from '@electric-sql/pglite'
import { CompiledQuery, type Generated, Kysely, sql } from 'kysely'
import { PGliteDialect } from '../server/infra/db/pglite-dialect.ts'
import { DataDirectory } from '../server/infra/db/pglite-files.ts'
import { dataDir, ROUNDS, type Row, valueRow } from './lib.ts'

const STATEMENTS = 2_000
const TRANSACTIONS = 200

interface Costs {
  read: number
  insert: number
  checked: number
  transaction: number
  batch: number
}

/** Microseconds per read and insert, milliseconds per transaction of eight, on one database. */
async function costsOn(options: PGliteOptions): Promise<Costs> {
  const pglite = await PGlite.create(options)
  const db = new Kysely<{
    t: { id: Generated<number>; v: number }
    child: { id: Generated<number>; parent_id: number }
  }>({
    dialect: new PGliteDialect(pglite),
  })
  try {
    await sql`create table t (id serial primary key, v int not null)`.execute(db)
    await sql`insert into t (v) select g from generate_series(1, 1000) g`.execute(db)
    await sql`create table parent (id int primary key)`.execute(db)
    await sql`insert into parent values (1)`.execute(db)
    // Known to be one page, as the server's statistics round leaves a small table.
    await sql`analyze parent`.execute(db)
    await sql`create table child (id serial primary key, parent_id int not null references parent)`.execute(
      db,
    )
    const timed = async (times: number, work: (i: number) => Promise<unknown>) => {
      for (let i = 0; i < 100; i++) await work(i)
      const started = performance.now()
      for (let i = 0; i < times; i++) await work(i)
      return (performance.now() - started) / times
    }
    const read = await timed(STATEMENTS, (i) =>
      db
        .selectFrom('t')
        .select('v')
        .where('id', '=', (i % 1000) + 1)
        .executeTakeFirst(),
    )
    const insert = await timed(STATEMENTS, (i) => db.insertInto('t').values({ v: i }).execute())
    const checked = await timed(STATEMENTS, () =>
      db.insertInto('child').values({ parent_id: 1 }).execute(),
    )
    const transaction = await timed(TRANSACTIONS, (i) =>
      db.transaction().execute(async (trx) => {
        for (let j = 0; j < 8; j++)
          await trx
            .insertInto('t')
            .values({ v: i + j })
            .execute()
      }),
    )
    // The same eight rows in one trip: PGlite's simple protocol takes a script.
    const batch = await timed(TRANSACTIONS, (i) => {
      const values = Array.from({ length: 8 }, (_, j) => `insert into t (v) values (${i + j});`)
      return db.executeQuery(CompiledQuery.raw(`begin; ${values.join(' ')} commit;`))
    })
    return { read: read * 1000, insert: insert * 1000, checked: checked * 1000, transaction, batch }
  } finally {
    await db.destroy()
  }
}

export async function measureEmbedded(): Promise<Row[]> {
  const variants: [string, () => PGliteOptions][] = [
    ['memory', () => ({})],
    ["on disk, PGlite's NodeFS", () => ({ dataDir: dataDir('embedded') })],
    ['on disk as npm start', () => ({ fs: new DataDirectory(dataDir('embedded')) })],
    [
      'on disk as npm start, relaxedDurability',
      () => ({ fs: new DataDirectory(dataDir('embedded')), relaxedDurability: true }),
    ],
  ]
  const costs = new Map(variants.map(([name]) => [name, [] as Costs[]]))
  for (let round = 0; round < ROUNDS; round++) {
    for (const [name, options] of variants) costs.get(name)!.push(await costsOn(options()))
  }
  return variants.flatMap(([name]) => {
    const of = (pick: (cost: Costs) => number) => costs.get(name)!.map(pick)
    return [
      valueRow(
        `PGlite (${name}): read by key`,
        of((c) => c.read),
        'µs',
      ),
      valueRow(
        `PGlite (${name}): insert, autocommit`,
        of((c) => c.insert),
        'µs',
      ),
      valueRow(
        `PGlite (${name}): insert with a foreign key to a one-page parent`,
        of((c) => c.checked),
        'µs',
      ),
      valueRow(
        `PGlite (${name}): 8 inserts in a transaction`,
        of((c) => c.transaction),
        'ms',
        {
          digits: 2,
        },
      ),
      valueRow(
        `PGlite (${name}): the same 8 as one batch`,
        of((c) => c.batch),
        'ms',
        {
          digits: 2,
        },
      ),
    ]
  })
}
