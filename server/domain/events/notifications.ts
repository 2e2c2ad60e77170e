import type { Kysely } from 'kysely'
import { v7 as uuidv7 } from 'uuid'
import {
  alwaysTold,
  type EventKind,
  type NotificationList,
  type NotificationPreferences,
  type PushSubscriptionBody,
  type UnreadCount,
} from '../../../contract/events.ts'
import type { DB } from '../../infra/db/schema.ts'
import { describeDevice } from '../auth/webauthn-rules.ts'
import { emitEvent } from '../outbox.ts'
import type { Owner, OwnerSession } from '../owner.ts'
import { pageOf } from '../page.ts'
import { EventsError } from './errors.ts'
import * as repo from './repository.ts'
import { eventPath, pushKeysProblem } from './rules.ts'
import { refuseUrl, type UrlPolicy } from './ssrf.ts'

/** The person's side of events: the notification centre, their push devices and preferences. */
export class Notifications {
  constructor(
    private readonly db: Kysely<DB>,
    private readonly policy: UrlPolicy,
    private readonly clock: () => Date = () => new Date(),
  ) {}

  async list(owner: Owner, page: { limit: number; offset: number }): Promise<NotificationList> {
    const { rows, total, unread } = await repo.listNotifications(this.db, owner, page)
    const data = rows.map((row) => ({
      id: row.id,
      kind: row.kind,
      version: row.version,
      data: row.payload,
      path: eventPath(row.kind, row.payload),
      created_at: row.created_at.toISOString(),
      read_at: row.read_at?.toISOString() ?? null,
    }))
    return { ...pageOf(data, total, page), unread }
  }

  async unread(owner: Owner): Promise<UnreadCount> {
    const { unread } = await repo.countNotifications(this.db, owner)
    return { unread }
  }

  /**
   * Marks these notifications read, or all but the security alerts (they are
   * read by id, once opened); someone else's ids change nothing.
   */
  async markRead(owner: Owner, ids: string[] | undefined): Promise<UnreadCount> {
    await repo.markRead(this.db, owner, ids, this.clock())
    return this.unread(owner)
  }

  /**
   * Keeps a browser's push subscription for the person. The endpoint is the
   * key: the same browser subscribing again (or after another person signed
   * in on it) moves the subscription to whoever subscribed last. A device new
   * to the person is told on every channel (security.push_subscription_added);
   * the same device renewing its keys is not.
   * @throws EventsError PUSH_KEYS_INVALID, PUSH_ENDPOINT_REFUSED (not https on a public address,
   *   outside the sandbox)
   */
  async subscribe(owner: OwnerSession, body: PushSubscriptionBody, userAgent: string | undefined) {
    const keys = pushKeysProblem(body.keys)
    if (keys) throw new EventsError({ kind: 'PUSH_KEYS_INVALID', ...keys })
    const refusal = await refuseUrl(body.endpoint, this.policy)
    if (refusal) throw new EventsError({ kind: 'PUSH_ENDPOINT_REFUSED', reason: refusal })
    const agent = userAgent?.slice(0, 512) ?? null
    await this.db.transaction().execute(async (trx) => {
      const before = await trx
        .selectFrom('push_subscriptions')
        .select(['user_id', 'tenant_id'])
        .where('endpoint', '=', body.endpoint)
        .forUpdate()
        .executeTakeFirst()
      const renewed = before?.user_id === owner.userId && before.tenant_id === owner.tenantId
      await trx
        .insertInto('push_subscriptions')
        .values({
          id: uuidv7(),
          tenant_id: owner.tenantId,
          user_id: owner.userId,
          endpoint: body.endpoint,
          p256dh: body.keys.p256dh,
          auth: body.keys.auth,
          user_agent: agent,
          created_by_session_id: owner.sessionId,
        })
        .onConflict((oc) =>
          oc.column('endpoint').doUpdateSet({
            tenant_id: owner.tenantId,
            user_id: owner.userId,
            p256dh: body.keys.p256dh,
            auth: body.keys.auth,
            ...(!renewed && { user_agent: agent, created_by_session_id: owner.sessionId }),
          }),
        )
        .execute()
      if (!renewed) {
        await emitEvent(trx, {
          ...owner,
          kind: 'security.push_subscription_added',
          payload: { device: describeDevice(agent) },
        })
      }
    })
  }

  async unsubscribe(owner: Owner, endpoint: string): Promise<void> {
    await this.db
      .deleteFrom('push_subscriptions')
      .where('endpoint', '=', endpoint)
      .where('user_id', '=', owner.userId)
      .where('tenant_id', '=', owner.tenantId)
      .execute()
  }

  async preferences(owner: Owner): Promise<NotificationPreferences> {
    const rows = await this.db
      .selectFrom('notification_mutes')
      .select('kind')
      .where('user_id', '=', owner.userId)
      .where('tenant_id', '=', owner.tenantId)
      .orderBy('kind')
      .execute()
    return { muted: rows.map((row) => row.kind) }
  }

  /**
   * Replaces the muted kinds (push and Telegram); the centre always shows everything.
   * @throws EventsError NOTIFICATION_KIND_NOT_MUTABLE (a security kind: told whatever is muted)
   */
  async setPreferences(owner: Owner, muted: EventKind[]): Promise<NotificationPreferences> {
    const unmutable = muted.flatMap((kind, index) =>
      alwaysTold(kind) ? [{ field: `/body/muted/${index}`, kind }] : [],
    )
    if (unmutable.length > 0) {
      throw new EventsError({ kind: 'NOTIFICATION_KIND_NOT_MUTABLE', fields: unmutable })
    }
    const kinds = [...new Set(muted)]
    await this.db.transaction().execute(async (trx) => {
      await trx
        .deleteFrom('notification_mutes')
        .where('user_id', '=', owner.userId)
        .where('tenant_id', '=', owner.tenantId)
        .execute()
      if (kinds.length > 0) {
        await trx
          .insertInto('notification_mutes')
          .values(kinds.map((kind) => ({ user_id: owner.userId, tenant_id: owner.tenantId, kind })))
          .execute()
      }
    })
    return this.preferences(owner)
  }
}
