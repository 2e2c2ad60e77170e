import type { Kysely, Transaction } from 'kysely'
import { v7 as uuidv7 } from 'uuid'
import { EVENT_PAYLOADS, type EventKind, type EventPayload } from '../../contract/events.ts'
import type { DB } from '../infra/db/schema.ts'
import { type Write, writeTogether } from '../infra/db/together.ts'
import { enqueueWrite } from '../infra/jobs.ts'

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
  const { ids, writes } = eventWrites(trx, [input])
  await writeTogether(trx, writes)
  return ids[0]!
}

/**
 * The inserts of several events of one tenant and their one dispatch job,
 * for a statement that writes other rows too (infra/db/together.ts); their
 * ids. None for no events.
 */
export function eventWrites(
  trx: Transaction<DB> | Kysely<DB>,
  inputs: readonly EventInput<EventKind>[],
): { ids: string[]; writes: Write[] } {
  if (inputs.length === 0) return { ids: [], writes: [] }
  const rows = inputs.map((input) => ({
    id: uuidv7(),
    tenant_id: input.tenantId,
    user_id: input.userId,
    kind: input.kind,
    version: EVENT_PAYLOADS[input.kind].version,
    payload: JSON.stringify(input.payload, wellFormed),
    created_at: input.at,
  }))
  const ids = rows.map((row) => row.id)
  const job = { kind: DISPATCH_JOB, tenantId: inputs[0]!.tenantId, payload: { event_ids: ids } }
  return { ids, writes: [trx.insertInto('events').values(rows), enqueueWrite(trx, job)] }
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
