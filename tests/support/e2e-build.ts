import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { PGlite } from '@electric-sql/pglite'
import { Kysely, sql } from 'kysely'
import { ensureBuilt } from '../../scripts/build-state.mjs'
import { PGLITE_EXTENSIONS } from '../../server/infra/db/database.ts'
import { migrate } from '../../server/infra/db/migrate.ts'
import { PGliteDialect } from '../../server/infra/db/pglite-dialect.ts'
import { CHROMIUM } from './e2e-server.ts'
import { PGDATA_TEMPLATE_ENV } from './server-process.ts'

/**
 * Global setup of the e2e project: the tests drive the built app, so build it
 * when dist/ is missing or older than its sources, and stop at once with a
 * readable message when there is no browser to drive it with. Then one
 * migrated embedded database on disk, which every server the tests start
 * copies (server-process.ts) instead of migrating its own.
 */
export default async function setup(): Promise<() => void> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(
      `e2e tests need Debian's Chromium at ${CHROMIUM} (Playwright cannot download browsers here). ` +
        'Install it with `apt-get install chromium` or run .ci/run, which does.',
    )
  }
  await ensureBuilt()
  const dir = mkdtempSync(join(tmpdir(), 'e2e-pgdata-'))
  const pgdata = join(dir, 'pgdata')
  const pglite = await PGlite.create({ dataDir: pgdata, extensions: PGLITE_EXTENSIONS })
  const db = new Kysely<unknown>({ dialect: new PGliteDialect(pglite) })
  try {
    // What the server does to a fresh database: migrate, then analyse (server/infra/db.ts).
    await migrate(db as Parameters<typeof migrate>[0])
    await sql`analyze`.execute(db)
  } finally {
    await db.destroy()
  }
  // Read by the servers the test files start, in the workers this process forks.
  process.env[PGDATA_TEMPLATE_ENV] = pgdata
  return () => rmSync(dir, { recursive: true, force: true })
}
