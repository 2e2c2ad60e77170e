import { parseArgs } from 'node:util'
import type { Kysely } from 'kysely'
import { EVENT_KINDS, type EventKind } from '../../../contract/events.ts'
import type { DB } from '../../infra/db/schema.ts'
import { isUuid } from '../../infra/uuid.ts'
import { EventsError } from './errors.ts'
import { toProblem } from './routes.ts'
import { WebhookEndpoints } from './webhooks.ts'

/**
 * `npm run tenant -- webhooks <command>`: the tenant's own webhook endpoints,
 * which hear every event of the tenant (a person's endpoints, made in the
 * developer area, hear only theirs). Run by tenants/cli.ts's runTenantCli.
 */
export const WEBHOOK_USAGE = `Usage: npm run tenant -- webhooks <command>

  list <tenant-id>                              the tenant's endpoints, as JSON
  add <tenant-id> --url <https://…> [--events kind,kind] [--description <text>]
                                                a new endpoint; prints its signing secret
  enable|disable <tenant-id> <endpoint-id>      start or stop deliveries to it
  rotate <tenant-id> <endpoint-id> [--overlap <seconds>]
                                                a new secret; the old one signs too for the
                                                overlap (default 86400; 0: ends at once)
  remove <tenant-id> <endpoint-id>              delete it and its delivery log

Event kinds: ${EVENT_KINDS.join(', ')} (none given: every kind).
Outside the sandbox (SANDBOX=false, the default with DATABASE_URL) URLs must be https on a
public address.`

type Output = { out(text: string): void; err(text: string): void }

export type WebhookCommand =
  | { name: 'help' }
  | { name: 'list'; tenantId: string }
  | {
      name: 'add'
      tenantId: string
      url: string
      events: EventKind[]
      description: string | undefined
    }
  | { name: 'enable' | 'disable' | 'remove'; tenantId: string; endpointId: string }
  | { name: 'rotate'; tenantId: string; endpointId: string; overlap: number | undefined }

export class WebhookUsageError extends Error {}

export function parseWebhookCommand(argv: readonly string[]): WebhookCommand {
  let values: Record<string, string | boolean | undefined>
  let positionals: string[]
  try {
    ;({ values, positionals } = parseArgs({
      args: [...argv],
      options: {
        url: { type: 'string' },
        events: { type: 'string' },
        description: { type: 'string' },
        overlap: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
      allowPositionals: true,
      strict: true,
    }))
  } catch (error) {
    throw new WebhookUsageError((error as Error).message)
  }
  const [name, tenant, endpoint, ...rest] = positionals
  if (values.help || name === 'help' || name === undefined) return { name: 'help' }
  if (rest.length > 0) throw new WebhookUsageError(`Unexpected argument: ${rest[0]}`)
  const uuid = (value: string | undefined, what: string) => {
    if (value === undefined) throw new WebhookUsageError(`${name} needs the ${what}.`)
    if (!isUuid(value)) throw new WebhookUsageError(`Not a ${what} (a UUID): ${value}`)
    return value.toLowerCase()
  }
  const tenantId = uuid(tenant, 'tenant id')
  switch (name) {
    case 'list':
      return { name, tenantId }
    case 'add': {
      if (typeof values.url !== 'string') throw new WebhookUsageError('add needs --url.')
      const events = String(values.events ?? '')
        .split(',')
        .map((kind) => kind.trim())
        .filter(Boolean)
      const unknown = events.find((kind) => !(EVENT_KINDS as readonly string[]).includes(kind))
      if (unknown) throw new WebhookUsageError(`Unknown event kind: ${unknown}`)
      return {
        name,
        tenantId,
        url: values.url,
        events: events as EventKind[],
        description: values.description as string | undefined,
      }
    }
    case 'enable':
    case 'disable':
    case 'remove':
      return { name, tenantId, endpointId: uuid(endpoint, 'endpoint id') }
    case 'rotate': {
      const overlap = values.overlap === undefined ? undefined : Number(values.overlap)
      if (
        overlap !== undefined &&
        !(Number.isInteger(overlap) && overlap >= 0 && overlap <= 604_800)
      ) {
        throw new WebhookUsageError('--overlap must be whole seconds from 0 to 604800.')
      }
      return { name, tenantId, endpointId: uuid(endpoint, 'endpoint id'), overlap }
    }
    default:
      throw new WebhookUsageError(`Unknown webhooks command: ${name}`)
  }
}

/** Runs a parsed webhooks command; answers the exit code (0 done, 1 refused). */
export async function runWebhookCommand(
  command: WebhookCommand,
  db: Kysely<DB>,
  output: Output,
  options: { sandbox: boolean },
): Promise<number> {
  const endpoints = new WebhookEndpoints(db, options)
  const json = (value: unknown) => output.out(JSON.stringify(value, null, 2))
  try {
    switch (command.name) {
      case 'help':
        output.out(WEBHOOK_USAGE)
        return 0
      case 'list': {
        const tenant = { tenantId: command.tenantId, userId: null }
        json((await endpoints.list(tenant, { limit: 100, offset: 0 })).data)
        return 0
      }
      case 'add': {
        const owner = { tenantId: command.tenantId, userId: null }
        if (!(await tenantExists(db, command.tenantId))) {
          output.err(`No tenant ${command.tenantId}.`)
          return 1
        }
        const endpoint = await endpoints.create(owner, {
          url: command.url,
          event_kinds: command.events,
          ...(command.description !== undefined && { description: command.description }),
        })
        json({ ...endpoint, secret: (await endpoints.secret(owner, endpoint.id)).secret })
        return 0
      }
      case 'enable':
      case 'disable': {
        const owner = { tenantId: command.tenantId, userId: null }
        json(
          await endpoints.update(owner, command.endpointId, { enabled: command.name === 'enable' }),
        )
        return 0
      }
      case 'rotate': {
        const owner = { tenantId: command.tenantId, userId: null }
        json(await endpoints.rotate(owner, command.endpointId, command.overlap))
        return 0
      }
      case 'remove':
        await endpoints.remove({ tenantId: command.tenantId, userId: null }, command.endpointId)
        output.out(`Removed ${command.endpointId}.`)
        return 0
    }
  } catch (error) {
    const problem = toProblem(error)
    if (!problem || !(error instanceof EventsError)) throw error
    output.err(problem.message)
    return 1
  }
}

async function tenantExists(db: Kysely<DB>, id: string) {
  return Boolean(
    await db.selectFrom('tenants').select('id').where('id', '=', id).executeTakeFirst(),
  )
}

/** SANDBOX as the server reads it (config.ts): on by default only without DATABASE_URL. */
export function sandboxFromEnv(env: Record<string, string | undefined>): boolean {
  const raw = env.SANDBOX
  if (raw && /^(1|true|yes|on)$/i.test(raw)) return true
  if (raw && /^(0|false|no|off)$/i.test(raw)) return false
  return !env.DATABASE_URL || env.DATABASE_URL === 'memory://'
}
