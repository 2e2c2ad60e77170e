import { type Compilable, type Kysely, type QueryCreator, sql, type Transaction } from 'kysely'
import type { DB } from './schema.ts'

/**
 * A write that can stand in a WITH clause: an insert, update or delete,
 * without a WITH of its own (PostgreSQL takes data-modifying statements in
 * WITH at the top level only).
 */
export type Write = Compilable & { toOperationNode(): unknown }

/**
 * Several writes as one statement — each a data-modifying WITH item, run to
 * completion whether or not anything reads it — so a transaction pays one
 * round trip for rows that need nothing from each other's answers. The rows
 * of one are not visible to the others (one snapshot), but constraints are
 * checked over all of them at the end of the statement, foreign keys between
 * them included; any of them failing fails the statement, and so all.
 */
export async function writeTogether(
  trx: Transaction<DB> | Kysely<DB>,
  writes: readonly Write[],
): Promise<void> {
  if (writes.length === 0) return
  let query: QueryCreator<DB> = trx
  writes.forEach((write, i) => {
    // The builders are made on the same database: their nodes go in as they are.
    query = query.with(`w${i}`, () => write as never) as unknown as QueryCreator<DB>
  })
  await query.selectNoFrom(sql<number>`1`.as('written')).execute()
}
