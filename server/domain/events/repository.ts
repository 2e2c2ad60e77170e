import { type Kysely, sql, type Transaction } from 'kysely'
import { v7 as uuidv7 } from 'uuid'
import { alwaysTold, type EventKind, quiet, TOLD_LIKE_SECURITY } from '../../../contract/events.ts'
import type { Language } from '../../../contract/languages.ts'
import type { DeliveryChannel } from '../../infra/db/events-schema.ts'
import type { DB } from '../../infra/db/schema.ts'
import type { Owner } from '../owner.ts'

type Executor = Kysely<DB> | Transaction<DB>

export async function findEvent(db: Executor, id: string) {
  return db
    .selectFrom('events')
    .select(['id', 'tenant_id', 'user_id', 'kind', 'version', 'payload', 'created_at'])
    .where('id', '=', id)
    .executeTakeFirst()
}
export type EventRow = NonNullable<Awaited<ReturnType<typeof findEvent>>>

/** The in-app notification of an event; a second call does nothing. */
export async function insertNotification(db: Executor, event: EventRow) {
  await db
    .insertInto('notifications')
    .values({
      event_id: event.id,
      tenant_id: event.tenant_id,
      user_id: event.user_id,
      created_at: event.created_at,
    })
    .onConflict((oc) => oc.column('event_id').doNothing())
    .execute()
}

/**
 * The endpoints that may see an event: its person's own and its tenant's (never
 * another's), registered by the time it was written. One registered later —
 * perhaps by someone who just took the account — never hears what happened
 * before it existed, however late the dispatch runs or often it is retried.
 */
export async function endpointsFor(
  db: Executor,
  event: { id: string; tenant_id: string; user_id: string },
) {
  return (
    db
      .selectFrom('webhook_endpoints')
      .select(['id', 'enabled', 'event_kinds'])
      .where('tenant_id', '=', event.tenant_id)
      .where((eb) => eb.or([eb('user_id', '=', event.user_id), eb('user_id', 'is', null)]))
      // Compared in the database, to the microsecond: read back into a JavaScript Date, the
      // event's time loses its microseconds, and an endpoint made in its millisecond missed it.
      .where((eb) =>
        eb(
          'created_at',
          '<=',
          eb.selectFrom('events').select('created_at').where('id', '=', event.id),
        ),
      )
      .execute()
  )
}

/**
 * The person's channels outside the app, unless they muted this kind; a kind
 * always told (contract/event-kinds.ts) reaches them whatever they muted, and
 * their e-mail too (`email`, else null); a quiet kind (what they did with
 * their own hands) none.
 */
export async function personalChannels(db: Executor, userId: string, kind: EventKind) {
  const told = alwaysTold(kind)
  const muted =
    quiet(kind) ||
    (!told &&
      (await db
        .selectFrom('notification_mutes')
        .select('kind')
        .where('user_id', '=', userId)
        .where('kind', '=', kind)
        .executeTakeFirst()))
  if (muted) return { subscriptions: [], telegramId: null, email: null }
  const [subscriptions, user] = await Promise.all([
    db.selectFrom('push_subscriptions').select('id').where('user_id', '=', userId).execute(),
    db
      .selectFrom('users')
      .select(['telegram_id', 'email'])
      .where('id', '=', userId)
      .executeTakeFirst(),
  ])
  return {
    subscriptions,
    telegramId: user?.telegram_id ?? null,
    email: told ? (user?.email ?? null) : null,
  }
}

/** Inserts the deliveries not yet there; answers only the new ones' ids (the dispatch key). */
export async function insertDeliveries(
  db: Executor,
  event: { id: string; tenant_id: string },
  targets: { channel: DeliveryChannel; destination: string; endpointId: string | null }[],
): Promise<string[]> {
  if (targets.length === 0) return []
  const rows = await db
    .insertInto('event_deliveries')
    .values(
      targets.map((target) => ({
        id: uuidv7(),
        tenant_id: event.tenant_id,
        event_id: event.id,
        channel: target.channel,
        destination: target.destination,
        endpoint_id: target.endpointId,
      })),
    )
    .onConflict((oc) => oc.columns(['event_id', 'channel', 'destination']).doNothing())
    .returning('id')
    .execute()
  return rows.map((row) => row.id)
}

/** One delivery with its event, as the deliver job needs it. */
export async function findDelivery(db: Executor, id: string) {
  return db
    .selectFrom('event_deliveries as d')
    .innerJoin('events as e', 'e.id', 'd.event_id')
    .select([
      'd.id',
      'd.channel',
      'd.destination',
      'd.endpoint_id',
      'd.status',
      'd.attempts',
      'e.id as event_id',
      'e.tenant_id',
      'e.user_id',
      'e.kind',
      'e.version',
      'e.payload',
      'e.created_at as event_created_at',
    ])
    .where('d.id', '=', id)
    .executeTakeFirst()
}
export type DeliveryRow = NonNullable<Awaited<ReturnType<typeof findDelivery>>>

export async function recordAttempt(
  db: Executor,
  id: string,
  attempt: {
    attempts: number
    status: 'pending' | 'delivered' | 'failed'
    responseStatus: number | null
    error: string | null
    at: Date
  },
) {
  await db
    .updateTable('event_deliveries')
    .set({
      attempts: attempt.attempts,
      status: attempt.status,
      response_status: attempt.responseStatus,
      last_error: attempt.error?.slice(0, 1_000) ?? null,
      last_attempt_at: attempt.at,
      delivered_at: attempt.status === 'delivered' ? attempt.at : null,
    })
    .where('id', '=', id)
    .execute()
}

export async function findEndpointForDelivery(db: Executor, id: string) {
  return db
    .selectFrom('webhook_endpoints')
    .select(['url', 'enabled', 'secret', 'previous_secret', 'previous_secret_expires_at'])
    .where('id', '=', id)
    .executeTakeFirst()
}

export async function findPushSubscription(db: Executor, id: string) {
  return db
    .selectFrom('push_subscriptions')
    .select(['endpoint', 'p256dh', 'auth'])
    .where('id', '=', id)
    .executeTakeFirst()
}

export async function deletePushSubscription(db: Executor, id: string) {
  await db.deleteFrom('push_subscriptions').where('id', '=', id).execute()
}

/** The language the person's profile names, any the product speaks; English for none. */
export async function languageOf(db: Executor, userId: string): Promise<Language> {
  const row = await db
    .selectFrom('user_profiles')
    .select('language')
    .where('user_id', '=', userId)
    .executeTakeFirst()
  return row?.language ?? 'en'
}

// The notification centre.

export async function listNotifications(
  db: Executor,
  owner: Owner,
  page: { limit: number; offset: number },
) {
  const [rows, counts] = await Promise.all([
    db
      .selectFrom('notifications as n')
      .innerJoin('events as e', 'e.id', 'n.event_id')
      .select(['e.id', 'e.kind', 'e.version', 'e.payload', 'n.created_at', 'n.read_at'])
      .where('n.user_id', '=', owner.userId)
      .where('n.tenant_id', '=', owner.tenantId)
      .orderBy('n.created_at', 'desc')
      .orderBy('n.event_id', 'desc')
      .limit(page.limit)
      .offset(page.offset)
      .execute(),
    countNotifications(db, owner),
  ])
  return { rows, ...counts }
}

export async function countNotifications(db: Executor, owner: Owner) {
  const row = await db
    .selectFrom('notifications')
    .select((eb) => [
      eb.fn.countAll<string>().as('total'),
      eb.fn.count<string>('read_at').as('read'),
    ])
    .where('user_id', '=', owner.userId)
    .where('tenant_id', '=', owner.tenantId)
    .executeTakeFirstOrThrow()
  const total = Number(row.total)
  return { total, unread: total - Number(row.read) }
}

export async function markRead(db: Executor, owner: Owner, ids: string[] | undefined, at: Date) {
  let query = db
    .updateTable('notifications')
    .set({ read_at: at })
    .where('user_id', '=', owner.userId)
    .where('tenant_id', '=', owner.tenantId)
    .where('read_at', 'is', null)
  // "All" leaves security alerts unread: they are read by id, once opened.
  query = ids
    ? query.where('event_id', 'in', ids)
    : query.where(({ exists, not, selectFrom }) =>
        not(
          exists(
            selectFrom('events as e')
              .select('e.id')
              .whereRef('e.id', '=', 'notifications.event_id')
              .where((eb) =>
                eb.or([
                  eb('e.kind', 'like', sql<EventKind>`'security.%'`),
                  eb('e.kind', 'in', TOLD_LIKE_SECURITY),
                ]),
              ),
          ),
        ),
      )
  await query.execute()
}
