// `npm run tenant -- <command>`: the tenant admin CLI (server/domain/tenants/cli.ts).
// Against DATABASE_URL when set, else the embedded PGlite in DATA_DIR, locked
// against the server while open; a schema behind this checkout is refused
// unless --migrate (server/domain/tenants/cli-database.ts).
import { resolve } from 'node:path'
import { loadConfig } from '../server/config.ts'
import { runProofsCli } from '../server/domain/proofs/cli.ts'
import { type OpenDatabase, runTenantCli } from '../server/domain/tenants/cli.ts'
import { openCliDatabase } from '../server/domain/tenants/cli-database.ts'

const argv = process.argv.slice(2)
const open: OpenDatabase = ({ migrate }) =>
  openCliDatabase({
    databaseUrl: process.env.DATABASE_URL || undefined,
    dataDir: resolve(process.env.DATA_DIR || '.data'),
    migrate,
  })
const output = {
  out: (text: string) => console.log(text),
  err: (text: string) => console.error(text),
}

// `proofs …` signs with the server's keys: the same environment (or DATA_DIR/secrets.json) as it.
process.exitCode =
  argv[0] === 'proofs'
    ? await runProofsCli(argv.slice(1), open, output, () => loadConfig(process.env))
    : await runTenantCli(argv, open, output)
