import type { Kysely, Transaction } from 'kysely'
import type { SessionCreation } from '../../../contract/security.ts'
import type { DB } from '../../infra/db/schema.ts'
import type { Owner } from '../owner.ts'
import { describeDevice } from './webauthn-rules.ts'

type Executor = Kysely<DB> | Transaction<DB>

/*
 * What a session set up that goes on watching or acting for the person after
 * the session ends: webhook endpoints (events go to their URL), push
 * subscriptions (a device hears them) and enabled API keys. Each row records
 * the session that created it (`created_by_session_id`, migration 0027), so
 * signing the other sessions out can take it away too. The tables belong to
 * the events and developer areas; these statements read and write only the
 * owner's rows of them, by that column, and import nothing of those areas.
 */

const endpointName = (row: { description: string; url: string }) => row.description || row.url

/** What each of `sessionIds` created that still works, by session. */
export async function createdBySessions(
  db: Executor,
  owner: Owner,
  sessionIds: string[],
): Promise<Map<string, SessionCreation[]>> {
  const created = new Map<string, SessionCreation[]>()
  if (sessionIds.length === 0) return created
  const [endpoints, subscriptions, keys] = await Promise.all([
    db
      .selectFrom('webhook_endpoints')
      .select(['id', 'description', 'url', 'created_by_session_id'])
      .where('tenant_id', '=', owner.tenantId)
      .where('user_id', '=', owner.userId)
      .where('created_by_session_id', 'in', sessionIds)
      .orderBy('created_at')
      .execute(),
    db
      .selectFrom('push_subscriptions')
      .select(['id', 'user_agent', 'created_by_session_id'])
      .where('tenant_id', '=', owner.tenantId)
      .where('user_id', '=', owner.userId)
      .where('created_by_session_id', 'in', sessionIds)
      .orderBy('created_at')
      .execute(),
    db
      .selectFrom('api_keys')
      .select(['id', 'name', 'created_by_session_id'])
      .where('tenant_id', '=', owner.tenantId)
      .where('user_id', '=', owner.userId)
      .where('enabled', '=', true)
      .where('created_by_session_id', 'in', sessionIds)
      .orderBy('created_at')
      .execute(),
  ])
  const add = (sessionId: string | null, item: SessionCreation) => {
    if (sessionId) created.set(sessionId, [...(created.get(sessionId) ?? []), item])
  }
  for (const row of endpoints) {
    add(row.created_by_session_id, {
      kind: 'webhook_endpoint',
      id: row.id,
      name: endpointName(row),
    })
  }
  for (const row of subscriptions) {
    add(row.created_by_session_id, {
      kind: 'push_subscription',
      id: row.id,
      name: describeDevice(row.user_agent),
    })
  }
  for (const row of keys) {
    add(row.created_by_session_id, { kind: 'api_key', id: row.id, name: row.name })
  }
  return created
}

/**
 * Removes what `sessionIds` created: their webhook endpoints (with their
 * delivery logs) and push subscriptions are deleted, their API keys disabled
 * (kept, so the key's history still names it). Answers what it removed.
 */
export async function removeCreatedBySessions(
  trx: Transaction<DB>,
  owner: Owner,
  sessionIds: string[],
  now: Date,
): Promise<SessionCreation[]> {
  if (sessionIds.length === 0) return []
  const endpoints = await trx
    .deleteFrom('webhook_endpoints')
    .where('tenant_id', '=', owner.tenantId)
    .where('user_id', '=', owner.userId)
    .where('created_by_session_id', 'in', sessionIds)
    .returning(['id', 'description', 'url'])
    .execute()
  const subscriptions = await trx
    .deleteFrom('push_subscriptions')
    .where('tenant_id', '=', owner.tenantId)
    .where('user_id', '=', owner.userId)
    .where('created_by_session_id', 'in', sessionIds)
    .returning(['id', 'user_agent'])
    .execute()
  const keys = await trx
    .updateTable('api_keys')
    .set({ enabled: false, updated_at: now })
    .where('tenant_id', '=', owner.tenantId)
    .where('user_id', '=', owner.userId)
    .where('enabled', '=', true)
    .where('created_by_session_id', 'in', sessionIds)
    .returning(['id', 'name'])
    .execute()
  return [
    ...endpoints.map((row) => ({
      kind: 'webhook_endpoint' as const,
      id: row.id,
      name: endpointName(row),
    })),
    ...subscriptions.map((row) => ({
      kind: 'push_subscription' as const,
      id: row.id,
      name: describeDevice(row.user_agent),
    })),
    ...keys.map((row) => ({ kind: 'api_key' as const, id: row.id, name: row.name })),
  ]
}
