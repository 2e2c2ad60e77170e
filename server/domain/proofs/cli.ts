import { parseArgs } from 'node:util'
import type { Kysely } from 'kysely'
import type { Config } from '../../config.ts'
import type { DB } from '../../infra/db/schema.ts'
import { isUuid } from '../../infra/uuid.ts'
import { SandboxCustody } from '../../providers/reserves/sandbox.ts'
import { type CliOutput, EXIT, type OpenDatabase, withDatabase } from '../tenants/cli.ts'
import { PublishError } from './errors.ts'
import { publishFailureText } from './publish-job.ts'
import { tenantExists } from './repository.ts'
import { ProofService } from './service.ts'
import { ProofKeys } from './signing-keys.ts'

/*
 * `npm run tenant -- proofs …`: a tenant's proof key and publishing by hand
 * (the daily job publishes on its own). scripts/tenant.ts runs it against the
 * same database as the tenant commands, with the server's secrets
 * (PROOF_KEYS_KEY, or DATA_DIR/secrets.json).
 */

export const PROOFS_USAGE = `Usage: npm run tenant -- proofs <command> <id>

  key <id>             the tenant's proof key (Ed25519), made when it has none: its id and
                       public key, as GET /api/proofs/<id>/key answers them
  key <id> --rotate    a new key replaces it; the roots the old one signed keep naming it,
                       and the app tells people the key changed
  publish <id>         publishes today's snapshot (UTC) and shows its root; a day published
                       already shows that day's root. Refused (exit 1) while money is still
                       arriving, or when the root would not equal the ledger's liabilities`

export class ProofsUsageError extends Error {}

export type ProofsCommand =
  | { name: 'help' }
  | { name: 'key'; id: string; rotate: boolean }
  | { name: 'publish'; id: string }

export function parseProofsCommand(argv: readonly string[]): ProofsCommand {
  let values: { rotate?: boolean; help?: boolean }
  let positionals: string[]
  try {
    ;({ values, positionals } = parseArgs({
      args: [...argv],
      options: { rotate: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } },
      allowPositionals: true,
      strict: true,
    }))
  } catch (error) {
    throw new ProofsUsageError((error as Error).message)
  }
  const [name, id, ...rest] = positionals
  if (values.help || name === 'help') return { name: 'help' }
  if (name !== 'key' && name !== 'publish') {
    throw new ProofsUsageError(name ? `Unknown command: proofs ${name}` : 'No command given.')
  }
  if (id === undefined) throw new ProofsUsageError(`proofs ${name} needs the tenant’s id.`)
  if (!isUuid(id)) throw new ProofsUsageError(`Not a tenant id (a UUID): ${id}`)
  if (rest.length > 0) throw new ProofsUsageError(`Unexpected argument: ${rest[0]}`)
  if (name === 'publish') {
    if (values.rotate) throw new ProofsUsageError('--rotate goes with proofs key.')
    return { name, id: id.toLowerCase() }
  }
  return { name, id: id.toLowerCase(), rotate: values.rotate === true }
}

/** Runs a parsed command on an open database; answers the exit code. */
export async function runProofsCommand(
  command: Exclude<ProofsCommand, { name: 'help' }>,
  db: Kysely<DB>,
  config: Pick<Config, 'sandbox' | 'secrets'>,
  output: CliOutput,
): Promise<number> {
  if (!(await tenantExists(db, command.id))) {
    output.err(`No tenant ${command.id}.`)
    return EXIT.refused
  }
  const keys = new ProofKeys(db, config.secrets.proofKeysKey)
  if (command.name === 'key') {
    const { key, created } = await keys.ensure(command.id, { rotate: command.rotate })
    if (created) output.err(command.rotate ? 'A new key replaces the old one.' : 'Key created.')
    output.out(
      JSON.stringify(
        {
          tenant_id: key.tenantId,
          key_id: key.keyId,
          algorithm: 'Ed25519',
          public_key_pem: key.publicKeyPem,
          created_at: key.createdAt.toISOString(),
        },
        null,
        2,
      ),
    )
    return EXIT.ok
  }
  const service = new ProofService(db, keys, config.sandbox ? new SandboxCustody(db) : undefined)
  try {
    const { root, published } = await service.publish(command.id)
    if (!published) output.err('Published already today (UTC): this is that root.')
    output.out(JSON.stringify(root, null, 2))
    return EXIT.ok
  } catch (error) {
    if (!(error instanceof PublishError)) throw error
    output.err(`Not published: ${publishFailureText(error.failure)}.`)
    return EXIT.refused
  }
}

/** `proofs …`: parsed (usage errors: exit 2), then run against the database `open` gives. */
export async function runProofsCli(
  argv: readonly string[],
  open: OpenDatabase,
  output: CliOutput,
  config: () => Pick<Config, 'sandbox' | 'secrets'>,
): Promise<number> {
  let command: ProofsCommand
  try {
    command = parseProofsCommand(argv.filter((arg) => arg !== '--migrate'))
  } catch (error) {
    if (!(error instanceof ProofsUsageError)) throw error
    output.err(`${error.message}\n\n${PROOFS_USAGE}`)
    return EXIT.usage
  }
  if (command.name === 'help') {
    output.out(PROOFS_USAGE)
    return EXIT.ok
  }
  const asked = command
  return withDatabase(open, argv.includes('--migrate'), output, (db) =>
    runProofsCommand(asked, db, config(), output),
  )
}
