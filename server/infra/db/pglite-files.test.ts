import fs, { mkdtempSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { PGlite } from '@electric-sql/pglite'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { DataDirectory } from './pglite-files.ts'

describe('the embedded data directory remembers the sizes of its files', () => {
  const root = mkdtempSync(join(tmpdir(), 'pglite-files-'))
  const dataDir = join(root, 'pgdata')
  let db: PGlite

  const open = () => PGlite.create({ fs: new DataDirectory(dataDir) })
  /** What PostgreSQL says the table's file holds, and what the disk says. */
  const sizes = async (table: string) => {
    const { rows } = await db.query<{ path: string; size: number }>(
      'select pg_relation_filepath($1::regclass) as path, pg_relation_size($1::regclass)::int as size',
      [table],
    )
    const { path, size } = rows[0]!
    return { postgres: size, disk: statSync(join(dataDir, path)).size }
  }

  beforeAll(async () => {
    db = await open()
    await db.exec(`
      create table parent (id int primary key);
      insert into parent values (1);
      -- Known to be one page (the server's statistics round analyses its tables): the
      -- foreign key's check then scans it rather than look it up by its index.
      analyze parent;
      create table child (id serial primary key, parent_id int not null references parent);
      create table grown (id int primary key, pad text not null);
    `)
  }, 60_000)
  afterAll(async () => {
    if (!db.closed) await db.close()
    rmSync(root, { recursive: true, force: true })
  })

  it('a foreign key checked against a parent of one page asks the disk once, not once a check', async () => {
    // The check scans the one-page parent, and a scan begins by asking the file's size:
    // an fstat through Node each time, without the remembered size.
    await db.exec('insert into child (parent_id) values (1)')
    const fstat = vi.spyOn(fs, 'fstatSync')
    try {
      for (let i = 0; i < 200; i++) await db.exec('insert into child (parent_id) values (1)')
      expect(fstat.mock.calls.length).toBeLessThan(20)
    } finally {
      fstat.mockRestore()
    }
    const { rows } = await db.query<{ n: number }>('select count(*)::int as n from child')
    expect(rows[0]!.n).toBe(201)
  })

  it('a file that grows, is cut short by VACUUM and grows again reads its true size each time', async () => {
    await db.exec("insert into grown select n, repeat('x', 500) from generate_series(1, 5000) as n")
    const grown = await sizes('grown')
    expect(grown.postgres).toBeGreaterThan(100 * 8192)
    expect(grown.postgres).toBe(grown.disk)

    // VACUUM truncates the pages left empty at the end: the same file, made shorter.
    await db.exec('delete from grown where id > 10')
    await db.exec('vacuum grown')
    const cut = await sizes('grown')
    expect(cut.postgres).toBeLessThan(grown.postgres)
    expect(cut.postgres).toBe(cut.disk)

    await db.exec(
      "insert into grown select n, repeat('y', 500) from generate_series(11, 2000) as n",
    )
    const again = await sizes('grown')
    expect(again.postgres).toBeGreaterThan(cut.postgres)
    expect(again.postgres).toBe(again.disk)
    const { rows } = await db.query<{ n: number; y: number }>(
      "select count(*)::int as n, count(*) filter (where pad like 'y%')::int as y from grown",
    )
    expect(rows[0]).toEqual({ n: 2000, y: 1990 })
  })

  it('what was written is there after a restart', async () => {
    await db.close()
    db = await open()
    const { rows } = await db.query<{ children: number; grown: number }>(
      'select (select count(*)::int from child) as children, (select count(*)::int from grown) as grown',
    )
    expect(rows[0]).toEqual({ children: 201, grown: 2000 })
    const after = await sizes('grown')
    expect(after.postgres).toBe(after.disk)
  }, 60_000)
})
