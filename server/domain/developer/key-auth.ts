import type { Kysely } from 'kysely'
import type { ApiKeyRole } from '../../../contract/developer.ts'
import type { DB } from '../../infra/db/schema.ts'
import type { Limits } from '../../infra/rate-limit.ts'
import { hashKey, publicIdOf, sameHash } from './key-secret.ts'
import { findSecret, touchLastUsed } from './repository.ts'
import { ipAllowed } from './rules.ts'

/** Who a valid key acts as. */
export interface KeyIdentity {
  keyId: string
  tenantId: string
  userId: string
  role: ApiKeyRole
  /** Whether the key works only from the addresses of its allow-list (payouts need it). */
  allowListed: boolean
}

export type KeyCheck =
  | { ok: true; identity: KeyIdentity }
  /** Unknown, wrong, disabled, expired, another tenant's or from an IP not allowed: one answer. */
  | { ok: false; reason: 'invalid' }
  | { ok: false; reason: 'blocked' }
  | { ok: false; reason: 'rate_limited'; retryAfterSeconds: number }

const MINUTE_MS = 60_000

/** A digest no key hashes to: an unknown public id costs the same comparison as a wrong secret. */
const NO_HASH = '0'.repeat(64)

/**
 * Authenticates `X-API-Key` values. Nothing is counted in this process: the
 * per-key rate limit is a one-minute window in the database (infra/rate-limit.ts)
 * and `last_used_at` is written at most once a minute per key, judged by the
 * row itself — so every server process enforces one limit and shares one last
 * use (docs/decisions.md). Times come from Date, so a test can move the clock.
 */
export class ApiKeyAuthenticator {
  constructor(
    private readonly db: Kysely<DB>,
    private readonly limits: Limits,
    private readonly options: { ratePerMinute: number },
  ) {}

  async check(key: string, call: { tenantId: string; ip: string }): Promise<KeyCheck> {
    const publicId = publicIdOf(key)
    const row = publicId === undefined ? undefined : await findSecret(this.db, publicId)
    const matches = sameHash(hashKey(key), row?.secret_hash ?? NO_HASH)
    const now = new Date()
    if (
      !row ||
      !matches ||
      !row.enabled ||
      row.tenant_id !== call.tenantId ||
      (row.expires_at !== null && row.expires_at.getTime() <= now.getTime()) ||
      !ipAllowed(row.allowed_ips, call.ip)
    ) {
      return { ok: false, reason: 'invalid' }
    }
    if (row.blocked_at !== null) return { ok: false, reason: 'blocked' }
    // A refused call is a use too: the owner sees a key that is hammering.
    const [hit] = await Promise.all([
      this.limits.hit(
        `api-key:${row.id}`,
        { max: this.options.ratePerMinute, windowMs: MINUTE_MS },
        now,
      ),
      touchLastUsed(this.db, row.id, now, MINUTE_MS),
    ])
    if (!hit.allowed) {
      return { ok: false, reason: 'rate_limited', retryAfterSeconds: hit.retryAfterSeconds }
    }
    return {
      ok: true,
      identity: {
        keyId: row.id,
        tenantId: row.tenant_id,
        userId: row.user_id,
        role: row.role,
        allowListed: row.allowed_ips.length > 0,
      },
    }
  }
}
