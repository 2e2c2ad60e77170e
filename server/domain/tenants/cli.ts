import { parseArgs } from 'node:util'
import type { Kysely } from 'kysely'
import { PRODUCTS } from '../../../contract/tenants.ts'
import type { DB } from '../../infra/db/schema.ts'
import { assertNever } from '../../infra/problem.ts'
import { isUuid } from '../../infra/uuid.ts'
import { TenantError } from './errors.ts'
import {
  PASSKEYS_USAGE,
  type PasskeysCommand,
  PasskeysUsageError,
  parsePasskeysCommand,
  runPasskeysCommand,
} from './relying-party.ts'
import type { Fault } from './rules.ts'
import { type TenantRow, TenantService } from './service.ts'

/**
 * `npm run tenant -- <command>`: the tenant admin CLI (scripts/tenant.ts is
 * its process). Parsing and running are apart so tests drive both in-process.
 *
 * Exit codes: 0 done; 1 refused (invalid settings, no such tenant, id taken);
 * 2 not understood (unknown command or flag, missing id) — usage goes to stderr.
 */

export const EXIT = { ok: 0, refused: 1, usage: 2 } as const

/** The database cannot be used now (held by the server, schema not current): exit 1, its message. */
export class CliRefusal extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'CliRefusal'
  }
}

export interface CliOutput {
  out(text: string): void
  err(text: string): void
}

export type Command =
  | { name: 'help' }
  | { name: 'list' }
  | { name: 'show'; id: string }
  | { name: 'create'; id?: string; changes: Record<string, unknown> }
  | { name: 'update'; id: string; changes: Record<string, unknown> }

/** Flag → setting, one per line of the usage; `--products.<name>` are added from PRODUCTS. */
const TEXT_FLAGS = {
  name: 'name',
  'primary-color': 'primary_color',
  'accent-color': 'accent_color',
  'logo-url': 'logo_url',
  'default-display-currency': 'default_display_currency',
  'support-email': 'support_email',
  'support-phone': 'support_phone',
  'support-url': 'support_url',
  'logout-url': 'logout_url',
} as const
const NULLABLE = new Set(['logo_url', 'support_phone', 'support_url', 'logout_url'])
const LIST_FLAGS = {
  'wallet-types': 'wallet_types',
  'supported-countries': 'supported_countries',
} as const

export const USAGE = `Usage: npm run tenant -- <command>

  list                         every tenant: id, name, products on
  show <id>                    one tenant's settings, as JSON
  create --name <name> [settings] [--id <uuid>]
                               a new tenant (defaults for what is not given), with its card programs
  update <id> <settings>       change some settings of a tenant
  webhooks <command>           the tenant's webhook endpoints (webhooks --help)
  passkeys <id> [--rp-id <host> --origins <origin,…> | --server-default]
                               the tenant's passkey domain and app origins (passkeys --help)
  proofs key|publish <id>      the tenant's proof-of-balances key, publishing a snapshot (proofs --help)

Settings:
  --name <text>                          --primary-color #rrggbb   --accent-color #rrggbb
  --logo-url </path | none>             --default-display-currency USD|EUR|GBP
  --wallet-types personal,business,…     --supported-countries DE,FR,… | all
  --support-email <address>              --support-phone <+…> | none
  --support-url <https://… | none>       --logout-url <https://… | /path | none>
${PRODUCTS.map((product) => `  --products.${product}=true|false`).join('\n')}

  --migrate                    apply this checkout's migrations first when the schema is behind
                               (without it, a schema not current is refused: exit 1)

Against DATABASE_URL when set, else the embedded database in DATA_DIR (default .data/).
The embedded database has one user at a time: while the server runs, the CLI is refused
(exit 1); stop the server first.`

export class UsageError extends Error {}

/** The command line as a command, or UsageError saying what is wrong with it. */
export function parseCommand(argv: readonly string[]): Command {
  const options = Object.fromEntries(
    [
      ...Object.keys(TEXT_FLAGS),
      ...Object.keys(LIST_FLAGS),
      ...PRODUCTS.map((product) => `products.${product}`),
      'id',
    ].map((flag) => [flag, { type: 'string' as const }]),
  )
  let values: Record<string, string | boolean | undefined>
  let positionals: string[]
  try {
    ;({ values, positionals } = parseArgs({
      args: [...argv],
      options: { ...options, help: { type: 'boolean', short: 'h' } },
      allowPositionals: true,
      strict: true,
    }))
  } catch (error) {
    throw new UsageError((error as Error).message)
  }
  const [name, id, ...rest] = positionals
  if (values.help || name === 'help') return { name: 'help' }
  if (rest.length > 0) throw new UsageError(`Unexpected argument: ${rest[0]}`)

  const changes: Record<string, unknown> = {}
  for (const [flag, setting] of Object.entries(TEXT_FLAGS)) {
    const value = values[flag] as string | undefined
    if (value === undefined) continue
    changes[setting] = NULLABLE.has(setting) && (value === '' || value === 'none') ? null : value
  }
  const walletTypes = values['wallet-types'] as string | undefined
  if (walletTypes !== undefined) changes.wallet_types = list(walletTypes)
  const countries = values['supported-countries'] as string | undefined
  if (countries !== undefined) {
    changes.supported_countries = countries === 'all' ? null : list(countries).map(upper)
  }
  const products: Record<string, unknown> = {}
  for (const product of PRODUCTS) {
    const value = values[`products.${product}`] as string | undefined
    if (value !== undefined) products[product] = flagBoolean(value)
  }
  if (Object.keys(products).length > 0) changes.products = products

  const requireId = () => {
    if (id === undefined) throw new UsageError(`${name} needs the tenant's id.`)
    if (!isUuid(id)) throw new UsageError(`Not a tenant id (a UUID): ${id}`)
    return id.toLowerCase()
  }
  const noSettings = () => {
    if (Object.keys(changes).length > 0 || values.id !== undefined) {
      throw new UsageError(`${name} takes no settings.`)
    }
  }
  switch (name) {
    case 'list':
      if (id !== undefined) throw new UsageError(`Unexpected argument: ${id}`)
      noSettings()
      return { name }
    case 'show':
      noSettings()
      return { name, id: requireId() }
    case 'create': {
      if (id !== undefined) throw new UsageError(`Unexpected argument: ${id} (use --id <uuid>)`)
      const chosen = values.id as string | undefined
      if (chosen !== undefined && !isUuid(chosen)) {
        throw new UsageError(`--id must be a UUID, got ${chosen}`)
      }
      if (changes.name === undefined) throw new UsageError('create needs --name.')
      return { name, id: chosen?.toLowerCase(), changes }
    }
    case 'update':
      if (values.id !== undefined) throw new UsageError('update takes the id as its argument.')
      if (Object.keys(changes).length === 0)
        throw new UsageError('update needs a setting to change.')
      return { name, id: requireId(), changes }
    case undefined:
      throw new UsageError('No command given.')
    default:
      throw new UsageError(`Unknown command: ${name}`)
  }
}

const list = (value: string) =>
  value
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item !== '')
const upper = (code: string) => code.toUpperCase()

/** true/false and their usual spellings; anything else goes on as typed, for the validation to name. */
function flagBoolean(value: string): unknown {
  if (/^(true|yes|on|1)$/i.test(value)) return true
  if (/^(false|no|off|0)$/i.test(value)) return false
  return value
}

/** "/products/cards" → "--products.cards", "/wallet_types/2" → "--wallet-types". */
export function flagOf(field: string): string {
  const [setting, key] = field.split('/').slice(1)
  if (setting === 'products' && key !== undefined) return `--products.${key}`
  return `--${(setting ?? '').replaceAll('_', '-')}`
}

const describe = (tenant: TenantRow) => ({
  id: tenant.id,
  ...tenant.settings,
  configured_at: tenant.configuredAt?.toISOString() ?? null,
  updated_at: tenant.updatedAt.toISOString(),
})

/** Runs a parsed command; answers the exit code. */
export async function runCommand(
  command: Command,
  db: Kysely<DB>,
  output: CliOutput,
): Promise<number> {
  const service = new TenantService(db)
  try {
    switch (command.name) {
      case 'help':
        output.out(USAGE)
        return EXIT.ok
      case 'list': {
        const tenants = await service.list()
        for (const tenant of tenants) {
          const on = Object.entries(tenant.settings.products)
            .filter(([, enabled]) => enabled)
            .map(([product]) => product)
          output.out(`${tenant.id}  ${tenant.settings.name}  [${on.join(', ') || 'no products'}]`)
        }
        if (tenants.length === 0) output.err('No tenants yet.')
        return EXIT.ok
      }
      case 'show':
        output.out(JSON.stringify(describe(await service.show(command.id)), null, 2))
        return EXIT.ok
      case 'create':
        output.out(
          JSON.stringify(
            describe(await service.create(command.changes, { id: command.id })),
            null,
            2,
          ),
        )
        return EXIT.ok
      case 'update':
        output.out(
          JSON.stringify(describe(await service.update(command.id, command.changes)), null, 2),
        )
        return EXIT.ok
    }
  } catch (error) {
    if (!(error instanceof TenantError)) throw error
    const failure = error.failure
    switch (failure.kind) {
      case 'TENANT_NOT_FOUND':
        output.err(`No tenant ${failure.tenantId}.`)
        break
      case 'TENANT_EXISTS':
        output.err(`A tenant ${failure.tenantId} exists already.`)
        break
      case 'INVALID_SETTINGS':
        output.err(`Not saved:\n${faultLines(failure.faults)}`)
        break
      default:
        return assertNever(failure)
    }
    return EXIT.refused
  }
}

const faultLines = (faults: Fault[]) =>
  faults.map((fault) => `  ${flagOf(fault.field)}: ${fault.message}`).join('\n')

/**
 * The whole CLI: parse, then (only for a command it understood) open the
 * database with `open`, run, close. Usage errors print the usage and exit 2;
 * a database `open` refuses (CliRefusal) prints why and exits 1.
 */
export async function runTenantCli(
  argv: readonly string[],
  open: (options: { migrate: boolean }) => Promise<{ db: Kysely<DB>; close(): Promise<void> }>,
  output: CliOutput,
): Promise<number> {
  let command: Command
  const migrate = argv.includes('--migrate')
  if (argv[0] === 'webhooks') return runWebhookCli(argv.slice(1), open, output)
  if (argv[0] === 'passkeys') return runPasskeysCli(argv.slice(1), open, output)
  try {
    command = parseCommand(argv.filter((arg) => arg !== '--migrate'))
  } catch (error) {
    if (!(error instanceof UsageError)) throw error
    output.err(`${error.message}\n\n${USAGE}`)
    return EXIT.usage
  }
  if (command.name === 'help') {
    output.out(USAGE)
    return EXIT.ok
  }
  return withDatabase(open, migrate, output, (db) => runCommand(command, db, output))
}

export type OpenDatabase = (options: {
  migrate: boolean
}) => Promise<{ db: Kysely<DB>; close(): Promise<void> }>

/** Opens the database (a CliRefusal: exit 1 with its message), runs, and closes it. */
export async function withDatabase(
  open: OpenDatabase,
  migrate: boolean,
  output: CliOutput,
  run: (db: Kysely<DB>) => Promise<number>,
): Promise<number> {
  let database: { db: Kysely<DB>; close(): Promise<void> }
  try {
    database = await open({ migrate })
  } catch (error) {
    if (!(error instanceof CliRefusal)) throw error
    output.err(error.message)
    return EXIT.refused
  }
  try {
    return await run(database.db)
  } finally {
    await database.close()
  }
}

/**
 * `webhooks …`: parsed and run like the tenant commands, against the same
 * database. Loaded only when asked for: the tenant commands start no slower.
 */
async function runWebhookCli(
  argv: readonly string[],
  open: OpenDatabase,
  output: CliOutput,
): Promise<number> {
  const {
    parseWebhookCommand,
    runWebhookCommand,
    sandboxFromEnv,
    WEBHOOK_USAGE,
    WebhookUsageError,
  } = await import('../events/webhook-cli.ts')
  let command: ReturnType<typeof parseWebhookCommand>
  try {
    command = parseWebhookCommand(argv.filter((arg) => arg !== '--migrate'))
  } catch (error) {
    if (!(error instanceof WebhookUsageError)) throw error
    output.err(`${error.message}\n\n${WEBHOOK_USAGE}`)
    return EXIT.usage
  }
  if (command.name === 'help') {
    output.out(WEBHOOK_USAGE)
    return EXIT.ok
  }
  return withDatabase(open, argv.includes('--migrate'), output, (db) =>
    runWebhookCommand(command, db, output, { sandbox: sandboxFromEnv(process.env) }),
  )
}

/** `passkeys …`: the tenant's WebAuthn relying party (relying-party.ts). */
async function runPasskeysCli(
  argv: readonly string[],
  open: OpenDatabase,
  output: CliOutput,
): Promise<number> {
  let command: PasskeysCommand
  try {
    command = parsePasskeysCommand(argv.filter((arg) => arg !== '--migrate'))
  } catch (error) {
    if (!(error instanceof PasskeysUsageError)) throw error
    output.err(`${error.message}\n\n${PASSKEYS_USAGE}`)
    return EXIT.usage
  }
  if (command.name === 'help') {
    output.out(PASSKEYS_USAGE)
    return EXIT.ok
  }
  const asked = command
  return withDatabase(open, argv.includes('--migrate'), output, async (db) => {
    const outcome = await runPasskeysCommand(asked, db)
    if (outcome.ok) {
      output.out(JSON.stringify(outcome.relyingParty, null, 2))
      return EXIT.ok
    }
    if (outcome.kind === 'TENANT_NOT_FOUND') output.err(`No tenant ${asked.id}.`)
    else output.err(`Not saved:\n${outcome.problems.map((problem) => `  ${problem}`).join('\n')}`)
    return EXIT.refused
  })
}
