import type { Kysely, Transaction } from 'kysely'
import { v7 as uuidv7 } from 'uuid'
import { EVENT_PAYLOADS, type EventKind, type EventPayload } from '../../contract/events.ts'
import type { DB } from '../infra/db/schema.ts'
import { jobRow } from '../infra/jobs.ts'

/** The job that fans one event out to its destinations (dispatcher.ts). */
export const DISPATCH_JOB = 'events.dispatch'

export interface EventInput<K extends EventKind> {
  tenantId: string
  /** The person the event is about. */
  userId: string
  kind: K
  payload: EventPayload<K>
  /** When the change happened, if not as the transaction commits (the sandbox demo's history). */
  at?: Date
}

/**
 * The outbox writer: records the event and its dispatch job in the caller's
 * transaction, so the event exists if and only if the change it reports
 * commits — a rollback leaves neither, and a crash after the commit leaves
 * both for the job runner to deliver. Call it inside the use case's own
 * transaction, never after it.
 */
export async function emitEvent<K extends EventKind>(
  trx: Transaction<DB> | Kysely<DB>,
  input: EventInput<K>,
): Promise<string> {
  const id = uuidv7()
  // The event and its dispatch job in one statement: one round trip of a money command's
  // transaction fewer for every event it tells.
  await trx
    .with('event', (db) =>
      db.insertInto('events').values({
        id,
        tenant_id: input.tenantId,
        user_id: input.userId,
        kind: input.kind,
        version: EVENT_PAYLOADS[input.kind].version,
        payload: JSON.stringify(input.payload, wellFormed),
        created_at: input.at,
      }),
    )
    .insertInto('jobs')
    .values(jobRow({ kind: DISPATCH_JOB, tenantId: input.tenantId, payload: { event_id: id } }))
    .execute()
  return id
}

/** An unpaired UTF-16 surrogate: JSON can spell it, jsonb refuses it. */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g

/**
 * Strings as jsonb takes them: a name the API accepted (any text) must not
 * make the event, and so the change it reports, fail to commit.
 */
function wellFormed(_key: string, value: unknown): unknown {
  return typeof value === 'string' ? value.replace(LONE_SURROGATE, '\ufffd') : value
}
