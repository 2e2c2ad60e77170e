import { type Kysely, sql, type Transaction } from 'kysely'
import { v7 as uuidv7 } from 'uuid'
import { alwaysTold, type EventKind, quiet, TOLD_LIKE_SECURITY } from '../../../contract/events.ts'
import type { Language } from '../../../contract/languages.ts'
import type { DeliveryChannel } from '../../infra/db/events-schema.ts'
import type { DB } from '../../infra/db/schema.ts'
import type { Owner } from '../owner.ts'

type Executor = Kysely<DB> | Transaction<DB>

/** The events of a dispatch batch. */
export async function findEvents(db: Executor, ids: string[]) {
  return db
    .selectFrom('events')
    .select(['id', 'tenant_id', 'user_id', 'kind', 'version', 'payload', 'created_at'])
    .where('id', 'in', ids)
    .orderBy('id')
    .execute()
}
export type EventRow = Awaited<ReturnType<typeof findEvents>>[number]

/** The in-app notifications of events, in one statement; one already written is left as it is. */
export async function insertNotifications(db: Executor, events: EventRow[]) {
  if (events.length === 0) return
  await db
    .insertInto('notifications')
    .values(
      events.map((event) => ({
        event_id: event.id,
        tenant_id: event.tenant_id,
        user_id: event.user_id,
        created_at: event.created_at,
      })),
    )
    .onConflict((oc) => oc.column('event_id').doNothing())
    .execute()
}

/**
 * The endpoints that may see each event, by the event's id: its person's own
 * and its tenant's (never another's), registered by the time it was written.
 * One registered later — perhaps by someone who just took the account — never
 * hears what happened before it existed, however late the dispatch runs or
 * often it is retried.
 */
export async function endpointsFor(db: Executor, eventIds: string[]) {
  // Compared in the database, to the microsecond: read back into a JavaScript Date, the
  // event's time loses its microseconds, and an endpoint made in its millisecond missed it.
  return db
    .selectFrom('events as e')
    .innerJoin('webhook_endpoints as w', (join) =>
      join
        .onRef('w.tenant_id', '=', 'e.tenant_id')
        .on((eb) => eb.or([eb('w.user_id', '=', eb.ref('e.user_id')), eb('w.user_id', 'is', null)]))
        .onRef('w.created_at', '<=', 'e.created_at'),
    )
    .select(['e.id as event_id', 'w.id', 'w.enabled', 'w.event_kinds'])
    .where('e.id', 'in', eventIds)
    .orderBy('w.id')
    .execute()
}

export interface PersonalChannels {
  subscriptions: { id: string }[]
  telegramId: string | null
  email: string | null
}

const NONE: PersonalChannels = { subscriptions: [], telegramId: null, email: null }

/**
 * What each person can be reached by outside the app, read for a whole batch
 * in one statement: the kinds they muted, their push subscriptions, their
 * Telegram chat and e-mail.
 */
export async function peopleChannels(
  db: Executor,
  userIds: string[],
): Promise<Map<string, Person>> {
  if (userIds.length === 0) return new Map()
  const rows = await db
    .selectFrom('users as u')
    .select([
      'u.id',
      'u.telegram_id',
      'u.email',
      sql<EventKind[]>`coalesce((
        select json_agg(m.kind) from notification_mutes m where m.user_id = u.id
      ), '[]'::json)`.as('muted'),
      sql<string[]>`coalesce((
        select json_agg(p.id order by p.id) from push_subscriptions p where p.user_id = u.id
      ), '[]'::json)`.as('subscriptions'),
    ])
    .where('u.id', 'in', userIds)
    .execute()
  return new Map(rows.map((row) => [row.id, row]))
}
export interface Person {
  id: string
  telegram_id: string | null
  email: string | null
  muted: EventKind[]
  subscriptions: string[]
}

/**
 * The person's channels for one kind, unless they muted it: a kind always told
 * (contract/event-kinds.ts) reaches them whatever they muted, and their e-mail
 * too (`email`, else null); a quiet kind (what they did with their own hands)
 * none.
 */
export function personalChannels(person: Person | undefined, kind: EventKind): PersonalChannels {
  const told = alwaysTold(kind)
  if (!person || quiet(kind) || (!told && person.muted.includes(kind))) return NONE
  return {
    subscriptions: person.subscriptions.map((id) => ({ id })),
    telegramId: person.telegram_id ?? null,
    email: told ? (person.email ?? null) : null,
  }
}

export interface DeliveryTarget {
  eventId: string
  tenantId: string
  channel: DeliveryChannel
  destination: string
  endpointId: string | null
}

/** Inserts the deliveries not yet there; answers only the new ones (the dispatch key). */
export async function insertDeliveries(db: Executor, targets: DeliveryTarget[]) {
  if (targets.length === 0) return []
  return db
    .insertInto('event_deliveries')
    .values(
      targets.map((target) => ({
        id: uuidv7(),
        tenant_id: target.tenantId,
        event_id: target.eventId,
        channel: target.channel,
        destination: target.destination,
        endpoint_id: target.endpointId,
      })),
    )
    .onConflict((oc) => oc.columns(['event_id', 'channel', 'destination']).doNothing())
    .returning(['id', 'tenant_id'])
    .execute()
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
