import type { FastifyInstance } from 'fastify'
import { sql } from 'kysely'
import { expect } from 'vitest'
import type { CardTransaction } from '../../../contract/card-transactions.ts'
import type { EventKind } from '../../../contract/events.ts'
import { ok } from '../cards/card-test-support.ts'

/*
 * What the issue-28 tests (money-told*.test.ts) read to see that a money
 * movement's ledger entry and its event(s) commit in one transaction: the
 * `xmin` of each row, the id of the transaction that wrote it.
 */

/** The transaction that wrote the entry under `key`, if one did. */
export async function entryTx(app: FastifyInstance, key: string) {
  const row = await app.db
    .selectFrom('journal_entries')
    .select(sql<string>`xmin::text`.as('tx'))
    .where('idempotency_key', '=', key)
    .executeTakeFirst()
  return row?.tx
}

/** The transaction that wrote the entry under `key`, which must exist. */
export async function postedTx(app: FastifyInstance, key: string): Promise<string> {
  const tx = await entryTx(app, key)
  expect(tx, `an entry under ${key}`).toBeDefined()
  return tx!
}

/** The transaction that wrote the card transaction `id` (a network message's or a fee's record). */
export async function recordTx(app: FastifyInstance, id: string) {
  const row = await app.db
    .selectFrom('card_transactions')
    .select(sql<string>`xmin::text`.as('tx'))
    .where('id', '=', id)
    .executeTakeFirstOrThrow()
  return row.tx
}

/** The payload fields the money events name what they are about by. */
export type AboutField =
  | 'order_id'
  | 'transaction_id'
  | 'card_id'
  | 'credit_id'
  | 'transfer_id'
  | 'dispute_id'

/** The events about `id` (an order's, a deposit's, a card's…) and the transaction of each, oldest first. */
export async function eventsOf(app: FastifyInstance, field: AboutField, id: string) {
  return app.db
    .selectFrom('events')
    .select(['kind', sql<string>`xmin::text`.as('tx')])
    .where(sql<boolean>`payload->>${sql.lit(field)} = ${id}`)
    .orderBy('id')
    .execute()
}

/** Events of `kind` there are, to see that a refused command left none. */
export async function eventCount(app: FastifyInstance, kind: EventKind) {
  const row = await app.db
    .selectFrom('events')
    .select(sql<number>`count(*)::int`.as('n'))
    .where('kind', '=', kind)
    .executeTakeFirstOrThrow()
  return row.n
}

/** A message of the sandbox card network (EUR unless told), answered 201. */
export async function networkMessage(app: FastifyInstance, body: Record<string, unknown>) {
  return ok<CardTransaction>(
    await app.inject({
      method: 'POST',
      url: '/api/sandbox/card-transactions',
      payload: { currency: 'EUR', ...body },
    }),
    201,
  )
}
