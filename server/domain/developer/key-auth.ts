import type { Kysely } from 'kysely'
import type { ApiKeyRole } from '../../../contract/developer.ts'
import type { DB } from '../../infra/db/schema.ts'
import { hashKey, publicIdOf, sameHash } from './key-secret.ts'
import { findSecret, touchLastUsed } from './repository.ts'
import { ipAllowed } from './rules.ts'

/** Who a valid key acts as. */
export interface KeyIdentity {
  keyId: string
  tenantId: string
  userId: string
  role: ApiKeyRole
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
 * Authenticates `X-API-Key` values. The counters live in this process: the
 * per-key rate limit is a fixed one-minute window per server, and
 * `last_used_at` is written at most once a minute per key (both in
 * docs/decisions.md). Times come from Date, so a test can move the clock.
 */
export class ApiKeyAuthenticator {
  readonly #windows = new Map<string, { start: number; count: number }>()
  readonly #lastWrites = new Map<string, number>()

  constructor(
    private readonly db: Kysely<DB>,
    private readonly options: { ratePerMinute: number },
  ) {}

  async check(key: string, call: { tenantId: string; ip: string }): Promise<KeyCheck> {
    const publicId = publicIdOf(key)
    const row = publicId === undefined ? undefined : await findSecret(this.db, publicId)
    const matches = sameHash(hashKey(key), row?.secret_hash ?? NO_HASH)
    const now = Date.now()
    if (
      !row ||
      !matches ||
      !row.enabled ||
      row.tenant_id !== call.tenantId ||
      (row.expires_at !== null && row.expires_at.getTime() <= now) ||
      !ipAllowed(row.allowed_ips, call.ip)
    ) {
      return { ok: false, reason: 'invalid' }
    }
    if (row.blocked_at !== null) return { ok: false, reason: 'blocked' }
    const retryAfterSeconds = this.#count(row.id, now)
    // A refused call is a use too: the owner sees a key that is hammering.
    await this.#touch(row.id, now)
    if (retryAfterSeconds !== undefined) {
      return { ok: false, reason: 'rate_limited', retryAfterSeconds }
    }
    return {
      ok: true,
      identity: { keyId: row.id, tenantId: row.tenant_id, userId: row.user_id, role: row.role },
    }
  }

  /** Counts a call in the key's window; the seconds to wait when the window is full. */
  #count(keyId: string, now: number): number | undefined {
    let window = this.#windows.get(keyId)
    if (!window || now - window.start >= MINUTE_MS) {
      if (this.#windows.size > 10_000) this.#forgetOld(this.#windows, now, (w) => w.start)
      window = { start: now, count: 0 }
      this.#windows.set(keyId, window)
    }
    window.count += 1
    if (window.count <= this.options.ratePerMinute) return undefined
    return Math.max(1, Math.ceil((window.start + MINUTE_MS - now) / 1000))
  }

  async #touch(keyId: string, now: number): Promise<void> {
    const last = this.#lastWrites.get(keyId)
    if (last !== undefined && now - last < MINUTE_MS) return
    if (this.#lastWrites.size > 10_000) this.#forgetOld(this.#lastWrites, now, (at) => at)
    this.#lastWrites.set(keyId, now)
    await touchLastUsed(this.db, keyId, new Date(now))
  }

  #forgetOld<T>(map: Map<string, T>, now: number, since: (value: T) => number): void {
    for (const [id, value] of map) if (now - since(value) >= MINUTE_MS) map.delete(id)
  }
}
