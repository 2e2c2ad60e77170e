import { parseArgs } from 'node:util'
import type { Kysely } from 'kysely'
import type { DB } from '../../infra/db/schema.ts'
import { isUuid } from '../../infra/uuid.ts'
import { relyingPartyProblems } from './relying-party-rules.ts'

/*
 * `npm run tenant -- passkeys …`: the WebAuthn relying party of a tenant
 * (tenants.webauthn_rp_id / webauthn_origins) — the domain its passkeys are
 * bound to and the origins its app is served from. Null: the server's
 * WEBAUTHN_RP_ID / WEBAUTHN_ORIGINS (server/domain/auth/passkeys.ts).
 */

export const PASSKEYS_USAGE = `Usage: npm run tenant -- passkeys <id> [--rp-id <host> --origins <origin,…> | --server-default]

  passkeys <id>                          the tenant's relying party, as JSON
  passkeys <id> --rp-id app.example.com --origins https://app.example.com,https://m.example.com
                                         bind the tenant's passkeys to this domain, from these
                                         origins (https; http only for localhost; each on the
                                         RP id or a subdomain of it)
  passkeys <id> --server-default         back to the server's WEBAUTHN_RP_ID / WEBAUTHN_ORIGINS

Passkeys are bound to the RP id they were made under: after a change of RP id,
the tenant's existing passkeys no longer sign in (people add new ones).`

export class PasskeysUsageError extends Error {}

export type PasskeysCommand =
  | { name: 'help' }
  | { name: 'show'; id: string }
  | { name: 'set'; id: string; rpId: string; origins: string[] }
  | { name: 'clear'; id: string }

/** The `passkeys …` command line as a command, or PasskeysUsageError saying what is wrong. */
export function parsePasskeysCommand(argv: readonly string[]): PasskeysCommand {
  let values: { 'rp-id'?: string; origins?: string; 'server-default'?: boolean; help?: boolean }
  let positionals: string[]
  try {
    ;({ values, positionals } = parseArgs({
      args: [...argv],
      options: {
        'rp-id': { type: 'string' },
        origins: { type: 'string' },
        'server-default': { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
      allowPositionals: true,
      strict: true,
    }))
  } catch (error) {
    throw new PasskeysUsageError((error as Error).message)
  }
  if (values.help) return { name: 'help' }
  const [id, ...rest] = positionals
  if (id === undefined) throw new PasskeysUsageError('passkeys needs the tenant’s id.')
  if (!isUuid(id)) throw new PasskeysUsageError(`Not a tenant id (a UUID): ${id}`)
  if (rest.length > 0) throw new PasskeysUsageError(`Unexpected argument: ${rest[0]}`)
  const tenantId = id.toLowerCase()
  const rpId = values['rp-id']
  const origins = values.origins
  if (values['server-default']) {
    if (rpId !== undefined || origins !== undefined) {
      throw new PasskeysUsageError('--server-default takes no --rp-id or --origins.')
    }
    return { name: 'clear', id: tenantId }
  }
  if (rpId === undefined && origins === undefined) return { name: 'show', id: tenantId }
  if (rpId === undefined || origins === undefined) {
    throw new PasskeysUsageError('--rp-id and --origins go together.')
  }
  return {
    name: 'set',
    id: tenantId,
    rpId: rpId.trim(),
    origins: origins
      .split(',')
      .map((origin) => origin.trim())
      .filter((origin) => origin !== ''),
  }
}

export interface RelyingParty {
  tenant_id: string
  /** Null: the server's WEBAUTHN_RP_ID. */
  webauthn_rp_id: string | null
  /** Null: the server's WEBAUTHN_ORIGINS. */
  webauthn_origins: string[] | null
}

export type PasskeysOutcome =
  | { ok: true; relyingParty: RelyingParty }
  | { ok: false; kind: 'TENANT_NOT_FOUND' }
  | { ok: false; kind: 'INVALID'; problems: string[] }

/** Shows, sets (checked with relyingPartyProblems) or clears a tenant's relying party. */
export async function runPasskeysCommand(
  command: Exclude<PasskeysCommand, { name: 'help' }>,
  db: Kysely<DB>,
): Promise<PasskeysOutcome> {
  if (command.name === 'set') {
    const problems = relyingPartyProblems(command.rpId, command.origins)
    if (problems.length > 0) return { ok: false, kind: 'INVALID', problems }
  }
  if (command.name !== 'show') {
    const now = new Date()
    await db
      .updateTable('tenants')
      .set(
        command.name === 'set'
          ? {
              webauthn_rp_id: command.rpId,
              webauthn_origins: JSON.stringify(command.origins),
              updated_at: now,
            }
          : { webauthn_rp_id: null, webauthn_origins: null, updated_at: now },
      )
      .where('id', '=', command.id)
      .execute()
  }
  const row = await db
    .selectFrom('tenants')
    .select(['id', 'webauthn_rp_id', 'webauthn_origins'])
    .where('id', '=', command.id)
    .executeTakeFirst()
  if (!row) return { ok: false, kind: 'TENANT_NOT_FOUND' }
  return {
    ok: true,
    relyingParty: {
      tenant_id: row.id,
      webauthn_rp_id: row.webauthn_rp_id,
      webauthn_origins: row.webauthn_origins,
    },
  }
}
