import type { Kysely, Transaction } from 'kysely'
import { v7 as uuidv7 } from 'uuid'
import type {
  ApiKey,
  ApiKeyList,
  ApiKeyWithSecret,
  CreateApiKeyBody,
  UpdateApiKeyBody,
} from '../../../contract/developer.ts'
import { normaliseName } from '../../../contract/names.ts'
import type { DB } from '../../infra/db/schema.ts'
import { emitEvent } from '../outbox.ts'
import type { Owner, OwnerSession } from '../owner.ts'
import { pageOf } from '../page.ts'
import { DeveloperError } from './errors.ts'
import { newKeySecret, prefixOf } from './key-secret.ts'
import * as repo from './repository.ts'
import { MAX_ACTIVE_KEYS, parseAllowedIps } from './rules.ts'

export const toApiKey = (row: repo.KeyRow): ApiKey => ({
  id: row.id,
  name: row.name,
  role: row.role,
  prefix: prefixOf(row.public_id),
  enabled: row.enabled,
  allowed_ips: row.allowed_ips,
  created_at: row.created_at.toISOString(),
  updated_at: row.updated_at.toISOString(),
  last_used_at: row.last_used_at?.toISOString() ?? null,
  previous_secret_expires_at: row.previous_expires_at
    ? new Date(row.previous_expires_at).toISOString()
    : null,
})

function allowedIps(entries: readonly string[]): string[] {
  const parsed = parseAllowedIps(entries)
  if (!parsed.ok) throw new DeveloperError({ kind: 'ALLOWED_IPS_INVALID', errors: parsed.errors })
  return parsed.rules
}

/**
 * The developer's own API keys. Every use case acts for a signed-in person
 * (routes.ts refuses API keys): a key never creates, rotates or widens keys.
 */
export class DeveloperService {
  constructor(
    private readonly db: Kysely<DB>,
    private readonly options: { defaultOverlapSeconds: number },
    private readonly clock: () => Date = () => new Date(),
  ) {}

  async list(owner: Owner, page: { limit: number; offset: number }): Promise<ApiKeyList> {
    const { rows, total } = await repo.listKeys(this.db, owner, page, this.clock())
    return pageOf(rows.map(toApiKey), total, page)
  }

  /**
   * A new key and its secret, which is shown this once.
   * @throws DeveloperError ALLOWED_IPS_INVALID, API_KEY_LIMIT
   */
  async create(owner: OwnerSession, body: CreateApiKeyBody): Promise<ApiKeyWithSecret> {
    const ips = allowedIps(body.allowed_ips ?? [])
    const name = normaliseName(body.name)
    const id = uuidv7()
    const secret = newKeySecret()
    const now = this.clock()
    const row = await this.db.transaction().execute(async (trx) => {
      await repo.lockOwner(trx, owner)
      await requireRoomForKey(trx, owner)
      await repo.insertKey(trx, { id, owner, name, role: body.role, allowedIps: ips }, now)
      await repo.insertSecret(
        trx,
        { id: uuidv7(), keyId: id, publicId: secret.publicId, hash: secret.hash },
        now,
      )
      await emitEvent(trx, {
        ...owner,
        kind: 'security.api_key_created',
        payload: { api_key_id: id, name, role: body.role },
      })
      return repo.getKey(trx, owner, id, now)
    })
    return { ...toApiKey(row as repo.KeyRow), secret: secret.key }
  }

  /**
   * A new secret for the key, shown this once; the old one keeps working for
   * `overlapSeconds` (default API_KEY_ROTATION_OVERLAP_SECONDS), then not.
   * @throws DeveloperError API_KEY_NOT_FOUND
   */
  async rotate(owner: Owner, id: string, overlapSeconds?: number): Promise<ApiKeyWithSecret> {
    const overlap = overlapSeconds ?? this.options.defaultOverlapSeconds
    const secret = newKeySecret()
    const now = this.clock()
    const row = await this.db.transaction().execute(async (trx) => {
      if (!(await repo.lockKey(trx, owner, id))) {
        throw new DeveloperError({ kind: 'API_KEY_NOT_FOUND' })
      }
      await repo.retireCurrentSecret(trx, id, new Date(now.getTime() + overlap * 1000), now)
      await repo.insertSecret(
        trx,
        { id: uuidv7(), keyId: id, publicId: secret.publicId, hash: secret.hash },
        now,
      )
      await repo.updateKey(trx, id, {}, now)
      const rotated = (await repo.getKey(trx, owner, id, now)) as repo.KeyRow
      await tellChanged(trx, owner, rotated, 'rotated')
      return rotated
    })
    return { ...toApiKey(row), secret: secret.key }
  }

  /**
   * Renames, re-roles, enables or disables the key, or replaces its allow-list.
   * @throws DeveloperError API_KEY_NOT_FOUND, ALLOWED_IPS_INVALID, API_KEY_LIMIT
   */
  async update(owner: Owner, body: UpdateApiKeyBody): Promise<ApiKey> {
    const ips = body.allowed_ips && allowedIps(body.allowed_ips)
    const now = this.clock()
    const row = await this.db.transaction().execute(async (trx) => {
      // The owner before the key: the lock order of create.
      if (body.enabled === true) await repo.lockOwner(trx, owner)
      const key = await repo.lockKey(trx, owner, body.id)
      if (!key) throw new DeveloperError({ kind: 'API_KEY_NOT_FOUND' })
      if (body.enabled === true && !key.enabled) await requireRoomForKey(trx, owner)
      await repo.updateKey(
        trx,
        body.id,
        {
          name: body.name === undefined ? undefined : normaliseName(body.name),
          role: body.role,
          enabled: body.enabled,
          allowedIps: ips,
        },
        now,
      )
      const updated = (await repo.getKey(trx, owner, body.id, now)) as repo.KeyRow
      await tellChanged(trx, owner, updated, 'updated')
      return updated
    })
    return toApiKey(row)
  }
}

/** A key that acts for the person changed: told on every channel (a security kind). */
function tellChanged(
  trx: Transaction<DB>,
  owner: Owner,
  key: repo.KeyRow,
  change: 'updated' | 'rotated',
) {
  return emitEvent(trx, {
    ...owner,
    kind: 'security.api_key_changed',
    payload: { api_key_id: key.id, name: key.name, role: key.role, enabled: key.enabled, change },
  })
}

/** @throws DeveloperError API_KEY_LIMIT when the owner already has MAX_ACTIVE_KEYS enabled. */
async function requireRoomForKey(trx: Transaction<DB>, owner: Owner) {
  if ((await repo.countEnabledKeys(trx, owner)) >= MAX_ACTIVE_KEYS) {
    throw new DeveloperError({ kind: 'API_KEY_LIMIT', limit: MAX_ACTIVE_KEYS })
  }
}
