import type { Products } from '../../../contract/tenants.ts'
import { assertNever } from '../../infra/problem.ts'
import type { OwnerSession } from '../owner.ts'
import type { SessionUser } from './repository.ts'

/** A live session as the session check read it: what a request needs, without a query. */
export interface LiveSession {
  tenantId: string
  userId: string
  user: SessionUser
  products: Products
}

/**
 * The channel the database tells every process on that a session ended, or
 * that what a request reads with it changed (migration 0036's triggers).
 */
export const SESSION_ENDS_CHANNEL = 'session_ends'

/** What a payload on SESSION_ENDS_CHANNEL names: `s:`, `u:` or `t:` and an id. */
export type SessionEnd =
  | { kind: 'session'; id: string }
  | { kind: 'user'; id: string }
  | { kind: 'tenant'; id: string }

const KINDS = { s: 'session', u: 'user', t: 'tenant' } as const

/** The end a payload names; undefined for one this build does not know (a newer node's). */
export function parseSessionEnd(payload: string): SessionEnd | undefined {
  const kind = KINDS[payload.slice(0, 1) as keyof typeof KINDS]
  const id = payload.slice(2)
  return kind && payload[1] === ':' && id ? { kind, id } : undefined
}

/**
 * This process's live sessions, the least recently used dropped past `size`.
 *
 * Trusted only while the process hears every end: `listening()` once its
 * listening connection is up (the cache starts empty), `lost()` the moment it
 * drops — from then on every lookup misses and nothing is kept, so each
 * request checks the database, until it listens again.
 *
 * A read of the database races the ends: one that began before an end (or
 * before the connection was lost) and returns after it may carry what the end
 * undid. So every end moves `epoch`, and `keep` stores a read only when the
 * epoch is still the one its read began in.
 */
export class SessionCache {
  readonly #entries = new Map<string, LiveSession>()
  #trusted = false
  #epoch = 0

  constructor(readonly size: number) {}

  /** Where a read of the database begins: hand it back to keep(). */
  get epoch(): number {
    return this.#epoch
  }

  get trusted(): boolean {
    return this.#trusted
  }

  /** The cached session the claims name; undefined when the database must answer. */
  find(claims: OwnerSession): LiveSession | undefined {
    if (!this.#trusted) return undefined
    const entry = this.#entries.get(claims.sessionId)
    if (!entry || entry.tenantId !== claims.tenantId || entry.userId !== claims.userId) {
      return undefined
    }
    // Most recently used last: Map keeps insertion order, so eviction takes the first.
    this.#entries.delete(claims.sessionId)
    this.#entries.set(claims.sessionId, entry)
    return entry
  }

  /** Keeps what a read that began at `epoch` found, unless an end came meanwhile. */
  keep(sessionId: string, entry: LiveSession, epoch: number): void {
    if (!this.#trusted || epoch !== this.#epoch || this.size === 0) return
    this.#entries.delete(sessionId)
    this.#entries.set(sessionId, entry)
    if (this.#entries.size > this.size) {
      this.#entries.delete(this.#entries.keys().next().value as string)
    }
  }

  /**
   * Drops what an end names: the session, every session of the user, or of the
   * tenant; everything for an end this build cannot read.
   */
  end(ended: SessionEnd | undefined): void {
    this.#epoch++
    if (!ended) {
      this.#entries.clear()
      return
    }
    switch (ended.kind) {
      case 'session':
        this.#entries.delete(ended.id)
        break
      case 'user':
        this.#dropWhere((entry) => entry.userId === ended.id)
        break
      case 'tenant':
        this.#dropWhere((entry) => entry.tenantId === ended.id)
        break
      default:
        assertNever(ended)
    }
  }

  #dropWhere(ended: (entry: LiveSession) => boolean): void {
    for (const [id, entry] of this.#entries) if (ended(entry)) this.#entries.delete(id)
  }

  /** The listening connection is up: whatever was kept before may have missed an end. */
  listening(): void {
    this.#entries.clear()
    this.#epoch++
    this.#trusted = true
  }

  /** The listening connection dropped: ends may go unheard, so nothing is trusted. */
  lost(): void {
    this.#entries.clear()
    this.#epoch++
    this.#trusted = false
  }

  get count(): number {
    return this.#entries.size
  }
}
