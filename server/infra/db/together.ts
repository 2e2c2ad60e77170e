import { type Compilable, type Kysely, type RawBuilder, sql, type Transaction } from 'kysely'
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
  await sql`with ${withItems(writes)}written as (select 1) select 1 from written`.execute(trx)
}

/**
 * The writes as the head of a WITH list, each item followed by its comma, for
 * a statement whose own items come next (the ledger's entry carries a command's
 * rows so: ledger/repository.ts). Named `w0`, `w1`, … in order. `counted`: each
 * answers a row per row written (`returning 1`), for `rowsWritten`.
 */
export function withItems(writes: readonly Write[], counted = false): RawBuilder<unknown> {
  return sql.join(
    writes.map((write, i) =>
      counted
        ? sql`${sql.ref(`w${i}`)} as (${write} returning 1), `
        : sql`${sql.ref(`w${i}`)} as (${write}), `,
    ),
    sql``,
  )
}

/**
 * The rows the counted WITH items wrote, as an expression: where it is read,
 * every one of them has run to completion — its unique keys checked — so a
 * statement can order its own checks after theirs.
 */
export function rowsWritten(writes: readonly Write[]): RawBuilder<number> {
  if (writes.length === 0) return sql<number>`0`
  return sql<number>`(${sql.join(
    writes.map((_, i) => sql`(select count(*) from ${sql.ref(`w${i}`)})`),
    sql` + `,
  )})`
}
