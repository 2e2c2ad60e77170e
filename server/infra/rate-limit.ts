import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import fp from 'fastify-plugin'
import { type Kysely, sql } from 'kysely'
import type { DB } from './db/schema.ts'
import { ProblemError } from './problem.ts'

/**
 * # Limits that hold across processes
 *
 * Every limit — sign-in failures per e-mail, attempts per address, code
 * sends, card reveals, KYC sessions, API-key calls — is a fixed-window
 * counter in `rate_limit_hits` (migration 0017), moved by one atomic upsert
 * that answers the new count: N server processes on one database enforce
 * one limit, and a restart forgets nothing. The window restarts on the first
 * hit after it ended. Times come from the app's clock (a test can move it).
 */

/** No limit counts over a longer window: rows older than this are pruned. */
export const LONGEST_WINDOW_MS = 60 * 60_000
const PRUNE_EVERY_MS = 60_000

export interface Limit {
  max: number
  windowMs: number
}

export interface Hit {
  key: string
  allowed: boolean
  /** Hits in the window, this one included. */
  count: number
  windowStart: Date
  /** Seconds until the window ends (at least 1). */
  retryAfterSeconds: number
}

export class Limits {
  constructor(private readonly db: Kysely<DB>) {}

  /** Counts one hit on `key` and says whether it is within `limit`. */
  async hit(key: string, limit: Limit, now = new Date()): Promise<Hit> {
    if (limit.windowMs > LONGEST_WINDOW_MS) throw new Error(`window over an hour for ${key}`)
    const ended = new Date(now.getTime() - limit.windowMs)
    // In ON CONFLICT … SET every expression reads the row as it was: both
    // CASEs see the old window_start, so a window that ended restarts at 1.
    const { rows } = await sql<{ hits: number; window_start: Date }>`
      insert into rate_limit_hits as r (key, window_start, hits)
      values (${key}, ${now}, 1)
      on conflict (key) do update set
        window_start = case when r.window_start <= ${ended} then ${now} else r.window_start end,
        hits = case when r.window_start <= ${ended} then 1 else r.hits + 1 end
      returning hits, window_start`.execute(this.db)
    const row = rows[0]!
    const windowStart = new Date(row.window_start)
    const left = windowStart.getTime() + limit.windowMs - now.getTime()
    return {
      key,
      allowed: row.hits <= limit.max,
      count: row.hits,
      windowStart,
      retryAfterSeconds: Math.max(1, Math.ceil(left / 1000)),
    }
  }

  /**
   * Takes a hit back (a sign-in that succeeded is no failure): only in the
   * window it was counted in — a window that restarted since owes nothing.
   */
  async refund(hit: Hit): Promise<void> {
    await this.db
      .updateTable('rate_limit_hits')
      .set((eb) => ({ hits: sql<number>`greatest(${eb.ref('hits')} - 1, 0)` }))
      .where('key', '=', hit.key)
      .where('window_start', '=', hit.windowStart)
      .execute()
  }

  /** Deletes counters whose window ended over LONGEST_WINDOW_MS ago. */
  async prune(now = new Date()): Promise<number> {
    const result = await this.db
      .deleteFrom('rate_limit_hits')
      .where('window_start', '<', new Date(now.getTime() - LONGEST_WINDOW_MS))
      .executeTakeFirst()
    return Number(result.numDeletedRows)
  }
}

/** 429 RATE_LIMITED with the wait in seconds: the Retry-After header and `retry_after`. */
export const rateLimited = (seconds: number, detail: string) =>
  new ProblemError(429, 'RATE_LIMITED', detail, {
    headers: { 'retry-after': String(seconds) },
    extensions: { retry_after: seconds },
  })

/**
 * A preHandler that counts each call under `key(request)` and, past the
 * limit, refuses it with rateLimited(detail).
 */
export function limitCalls(
  app: FastifyInstance,
  options: Limit & { key: (request: FastifyRequest) => string },
  detail: string,
) {
  return async (request: FastifyRequest) => {
    const hit = await app.limits.hit(options.key(request), options)
    if (!hit.allowed) throw rateLimited(hit.retryAfterSeconds, detail)
  }
}

/**
 * Limits failures, not calls: a preHandler reserves one hit under
 * `key(request)` (past the limit, rateLimited(detail)) and an onSend hook
 * gives it back when the answer is a success. A failure cannot be known
 * before the call, so reserving first means concurrent guesses never get past
 * the limit; onSend rather than onResponse, so the client's next call already
 * sees the count without its success.
 */
export function limitFailures(
  app: FastifyInstance,
  options: Limit & { key: (request: FastifyRequest) => string },
  detail: string,
) {
  const reserved = new WeakMap<FastifyRequest, Hit>()
  return {
    preHandler: async (request: FastifyRequest) => {
      const hit = await app.limits.hit(options.key(request), options)
      if (!hit.allowed) throw rateLimited(hit.retryAfterSeconds, detail)
      reserved.set(request, hit)
    },
    onSend: async (request: FastifyRequest, reply: FastifyReply, payload: unknown) => {
      const hit = reserved.get(request)
      if (hit && reply.statusCode < 300) await app.limits.refund(hit)
      return payload
    },
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    limits: Limits
  }
}

/** `app.limits`, and a prune of ended windows every minute while the app runs. */
export default fp(
  async function rateLimits(app: FastifyInstance) {
    const limits = new Limits(app.db)
    app.decorate('limits', limits)
    let timer: NodeJS.Timeout | undefined
    app.addHook('onReady', async () => {
      timer = setInterval(() => {
        limits.prune().catch((error) => app.log.warn({ err: error }, 'rate-limit prune failed'))
      }, PRUNE_EVERY_MS)
      timer.unref()
    })
    app.addHook('preClose', async () => clearInterval(timer))
  },
  { name: 'rate-limits', dependencies: ['db'] },
)
