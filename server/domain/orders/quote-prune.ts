import type { Kysely } from 'kysely'
import type { DB } from '../../infra/db/schema.ts'
import { pruneQuotes } from './quote-repository.ts'

/**
 * How long a quote no order placed is kept after it expired. Placing refuses
 * it from expires_at on (the TTL is at most 600 s), so this is not about
 * money: for a day a client retrying a stale quote still hears QUOTE_EXPIRED
 * with the expiry rather than QUOTE_NOT_FOUND, and support can still look up
 * the quote someone asks about. Past it, the row is only weight: the app
 * re-quotes every few seconds while a form is open.
 */
export const QUOTE_RETENTION_MS = 24 * 60 * 60 * 1000

/**
 * At most this many stale quotes are deleted per round of the prune job (one
 * short transaction each); a full batch asks for the next round at once.
 */
export const QUOTE_PRUNE_BATCH = 1000

/** The job that prunes stale quotes, and how often it runs. */
export const QUOTE_PRUNE_JOB = 'orders.prune_quotes'
export const QUOTE_PRUNE_EVERY_MS = 10 * 60_000

/**
 * One round of the prune: at most QUOTE_PRUNE_BATCH quotes no order placed
 * that expired over QUOTE_RETENTION_MS before `now`. Answers how many went.
 */
export function pruneStaleQuotes(db: Kysely<DB>, now: Date): Promise<number> {
  return db
    .transaction()
    .execute((trx) =>
      pruneQuotes(trx, new Date(now.getTime() - QUOTE_RETENTION_MS), QUOTE_PRUNE_BATCH),
    )
}
