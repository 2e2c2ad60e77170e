import { createHash } from 'node:crypto'
import type { Kysely, Transaction } from 'kysely'
import type { DB } from '../infra/db/schema.ts'

/**
 * The canonical text of a request: objects become their `[key, value]` pairs
 * sorted by key, at every level, arrays keep their order, `undefined` is null.
 * So the hash never depends on how a client ordered its JSON keys.
 */
function canonical(value: unknown): unknown {
  if (value === undefined) return null
  if (Array.isArray(value)) return value.map(canonical)
  if (value !== null && typeof value === 'object') {
    return Object.keys(value)
      .sort()
      .map((key) => [key, canonical((value as Record<string, unknown>)[key])])
  }
  return value
}

/**
 * SHA-256 (hex) of a request's canonical text: what tells a replay under an
 * idempotency key from another request under the same key (orders, card
 * creation, card network messages). Normalise values (case of ids, amounts in
 * minor units) before hashing; key order is taken care of here.
 */
export function canonicalHash(request: unknown): string {
  return createHash('sha256')
    .update(JSON.stringify(canonical(request)))
    .digest('hex')
}

/**
 * The idempotency key a client sent: the body's `request_id`, else the
 * `Idempotency-Key` header, else none.
 */
export const idempotencyKey = (request: {
  requestId?: string | undefined
  header?: string | undefined
}): string | undefined => request.requestId ?? request.header

/** Who a key belongs to: `order` and `card_issue` keys are a user's, `card_message` ids a card's. */
export type IdempotencyScope = DB['idempotency_keys']['scope']

/** A request under an idempotency key, as runIdempotent claims it. */
export interface IdempotentRequest {
  scope: IdempotencyScope
  tenantId: string
  /** The user (orders, card issuing) or the card (the network's messages). */
  ownerId: string
  /** The client's key; none: the use case runs unguarded. */
  key: string | undefined
  /** canonicalHash of the request, normalised by the caller. */
  hash: string
}

/** The same key came with another request: each area answers its own 409. */
export class IdempotencyConflictError extends Error {
  constructor(readonly scope: IdempotencyScope) {
    super(`IDEMPOTENCY_CONFLICT (${scope})`)
    this.name = 'IdempotencyConflictError'
  }
}

/**
 * What a use case does under its key, decided after the early replay check
 * and outside any transaction (its validation reads go here): `run` in the
 * transaction that claimed the key, answering what the client gets.
 */
export interface IdempotentUseCase<A> {
  run: (trx: Transaction<DB>) => Promise<A>
}

/**
 * The write path of a request under an idempotency key whose answer comes
 * out of its transaction (card issuing, transfers, the card network's
 * messages); one whose answer is known before, an order, claims its key with
 * its rows instead (`claimWrite`, ledger/money-command.ts):
 *
 * 1. a key already answered answers again — before any check, since what the
 *    request was checked against may have changed since;
 *    under another request, IdempotencyConflictError;
 * 2. `prepare` checks the request and says what to do;
 * 3. one transaction claims the key first (a concurrent request under the
 *    same key waits on the claim: it replays once this commits, or goes ahead
 *    if this rolls back), runs the use case, and keeps its answer with the key.
 *
 * A use case that throws rolls its claim back with everything else: only an
 * answer that was given is ever replayed.
 */
export async function runIdempotent<A>(
  db: Kysely<DB>,
  request: IdempotentRequest,
  prepare: () => Promise<IdempotentUseCase<A>>,
): Promise<{ answer: A; replayed: boolean }> {
  const { key } = request
  if (key !== undefined) {
    const earlier = await findAnswer(db, request, key)
    if (earlier) return replayOf<A>(request, earlier)
  }
  const useCase = await prepare()
  return db.transaction().execute(async (trx) => {
    if (key !== undefined) {
      const claimed = await claim(trx, request, key)
      if (!claimed) {
        const earlier = await findAnswer(trx, request, key)
        // Unreachable: the claim met a committed row, and keys are never deleted.
        if (!earlier) throw new Error(`idempotency key ${key} (${request.scope}) vanished`)
        return replayOf<A>(request, earlier)
      }
    }
    const answer = await useCase.run(trx)
    if (key !== undefined) await keepAnswer(trx, request, key, answer)
    return { answer, replayed: false }
  })
}

/**
 * The claim of a key whose answer is known before the transaction, as one
 * of the transaction's first writes (infra/db/together.ts): a plain insert,
 * so a key taken fails it — the request is then a replay or a conflict
 * (`answeredBefore`). On PostgreSQL it waits for a concurrent uncommitted
 * claim of the same key, so two requests never both go through.
 */
export function claimWrite(
  trx: Transaction<DB>,
  request: IdempotentRequest & { key: string },
  answer: unknown,
) {
  return trx.insertInto('idempotency_keys').values({
    ...keyOf(request, request.key),
    request_hash: request.hash,
    answer: JSON.stringify(answer),
  })
}

/**
 * The answer given before under the request's key, if any: for a request
 * that claims its key with its first writes (`claimWrite`) and failed —
 * whatever failed, a key answered before answers again.
 * @throws IdempotencyConflictError when the key was answered for another request
 */
export async function answeredBefore<A>(
  db: Kysely<DB>,
  request: IdempotentRequest & { key: string },
): Promise<{ answer: A; replayed: true } | undefined> {
  const earlier = await findAnswer(db, request, request.key)
  return earlier && replayOf<A>(request, earlier)
}

function replayOf<A>(
  request: IdempotentRequest,
  earlier: { request_hash: string; answer: unknown },
): { answer: A; replayed: true } {
  if (earlier.request_hash !== request.hash) throw new IdempotencyConflictError(request.scope)
  return { answer: earlier.answer as A, replayed: true }
}

const keyOf = (request: IdempotentRequest, key: string) => ({
  tenant_id: request.tenantId,
  scope: request.scope,
  owner_id: request.ownerId,
  key,
})

function findAnswer(db: Kysely<DB> | Transaction<DB>, request: IdempotentRequest, key: string) {
  return db
    .selectFrom('idempotency_keys')
    .select(['request_hash', 'answer'])
    .where((eb) => eb.and(keyOf(request, key)))
    .executeTakeFirst()
}

/**
 * Inserts the key unless it is taken; false when it is. On PostgreSQL the
 * insert waits for a concurrent uncommitted claim of the same key, so two
 * requests never both run.
 */
async function claim(
  trx: Transaction<DB>,
  request: IdempotentRequest,
  key: string,
): Promise<boolean> {
  const inserted = await trx
    .insertInto('idempotency_keys')
    .values({
      ...keyOf(request, key),
      request_hash: request.hash,
      answer: null,
    })
    .onConflict((oc) => oc.doNothing())
    .returning('key')
    .executeTakeFirst()
  return inserted !== undefined
}

async function keepAnswer(
  trx: Transaction<DB>,
  request: IdempotentRequest,
  key: string,
  answer: unknown,
): Promise<void> {
  await trx
    .updateTable('idempotency_keys')
    .set({ answer: JSON.stringify(answer) })
    .where((eb) => eb.and(keyOf(request, key)))
    .execute()
}
