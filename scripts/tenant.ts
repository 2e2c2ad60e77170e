// `npm run tenant -- <command>`: the tenant admin CLI (server/domain/tenants/cli.ts).
// Against DATABASE_URL when set, else the embedded PGlite in DATA_DIR, locked
// against the server while open; a schema behind this checkout is refused
// unless --migrate (server/domain/tenants/cli-database.ts).
import { resolve } from 'node:path'
import { runTenantCli } from '../server/domain/tenants/cli.ts'
import { openCliDatabase } from '../server/domain/tenants/cli-database.ts'

process.exitCode = await runTenantCli(
  process.argv.slice(2),
  ({ migrate }) =>
    openCliDatabase({
      databaseUrl: process.env.DATABASE_URL || undefined,
      dataDir: resolve(process.env.DATA_DIR || '.data'),
      migrate,
    }),
  { out: (text) => console.log(text), err: (text) => console.error(text) },
)
