import type { Kysely, Transaction } from 'kysely'
import { v7 as uuidv7 } from 'uuid'
import type {
  CreateWebhookEndpointBody,
  EventKind,
  EventPayload,
  UpdateWebhookEndpointBody,
  WebhookDelivery,
  WebhookDeliveryList,
  WebhookEndpoint,
  WebhookEndpointList,
  WebhookSecret,
} from '../../../contract/events.ts'
import { normaliseName } from '../../../contract/names.ts'
import type { DB } from '../../infra/db/schema.ts'
import { enqueue } from '../../infra/jobs.ts'
import { emitEvent } from '../outbox.ts'
import { pageOf } from '../page.ts'
import { DELIVER_JOB } from './dispatcher.ts'
import { EventsError } from './errors.ts'
import { type Resolve, refuseUrl } from './ssrf.ts'
import { newWebhookSecret } from './webhook-client.ts'

/** Whose endpoints: a person's (developer area) or, with `userId: null`, the tenant's own. */
export interface EndpointOwner {
  tenantId: string
  userId: string | null
  /** The person's session making the change: what it registers records it (issue 26). */
  sessionId?: string
}

/** Endpoints one owner may have at once. */
export const MAX_ENDPOINTS = 20
/** The default overlap of a rotated-out secret: a day. */
export const DEFAULT_OVERLAP_SECONDS = 86_400

const COLUMNS = [
  'id',
  'url',
  'description',
  'event_kinds',
  'enabled',
  'created_at',
  'updated_at',
  'previous_secret_expires_at',
] as const

type EndpointRow = {
  id: string
  url: string
  description: string
  event_kinds: WebhookEndpoint['event_kinds']
  enabled: boolean
  created_at: Date
  updated_at: Date
  previous_secret_expires_at: Date | null
}

const toEndpoint = (row: EndpointRow, now: Date): WebhookEndpoint => ({
  ...row,
  created_at: row.created_at.toISOString(),
  updated_at: row.updated_at.toISOString(),
  previous_secret_expires_at:
    row.previous_secret_expires_at && row.previous_secret_expires_at > now
      ? row.previous_secret_expires_at.toISOString()
      : null,
})

/**
 * Webhook endpoints: registered by a person in the developer area (they hear
 * only their own events) or by the operator for the tenant (`npm run tenant`,
 * every event of the tenant). URLs pass the SSRF checks (ssrf.ts) here and
 * again at every delivery.
 */
export class WebhookEndpoints {
  constructor(
    private readonly db: Kysely<DB>,
    private readonly options: { sandbox: boolean; resolve?: Resolve },
    private readonly clock: () => Date = () => new Date(),
  ) {}

  #owned(owner: EndpointOwner) {
    const query = this.db.selectFrom('webhook_endpoints').where('tenant_id', '=', owner.tenantId)
    return owner.userId === null
      ? query.where('user_id', 'is', null)
      : query.where('user_id', '=', owner.userId)
  }

  async #require(owner: EndpointOwner, id: string): Promise<EndpointRow> {
    const row = await this.#owned(owner).select(COLUMNS).where('id', '=', id).executeTakeFirst()
    if (!row) throw new EventsError({ kind: 'WEBHOOK_ENDPOINT_NOT_FOUND' })
    return row
  }

  /**
   * Tells the person that events of theirs now go somewhere new (a security
   * kind: every channel, whatever they muted); the tenant's own endpoints are
   * the operator's, told to nobody.
   */
  async #tell<K extends EventKind>(
    trx: Transaction<DB>,
    owner: EndpointOwner,
    kind: K,
    payload: EventPayload<K>,
  ) {
    if (owner.userId)
      await emitEvent(trx, { tenantId: owner.tenantId, userId: owner.userId, kind, payload })
  }

  /** @throws EventsError WEBHOOK_URL_REFUSED */
  async #checkUrl(url: string) {
    const reason = await refuseUrl(url, this.options)
    if (reason) throw new EventsError({ kind: 'WEBHOOK_URL_REFUSED', reason })
  }

  async list(
    owner: EndpointOwner,
    page: { limit: number; offset: number },
  ): Promise<WebhookEndpointList> {
    const now = this.clock()
    const [rows, count] = await Promise.all([
      this.#owned(owner)
        .select(COLUMNS)
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .limit(page.limit)
        .offset(page.offset)
        .execute(),
      this.#owned(owner)
        .select((eb) => eb.fn.countAll<string>().as('n'))
        .executeTakeFirstOrThrow(),
    ])
    return pageOf(
      rows.map((row) => toEndpoint(row, now)),
      Number(count.n),
      page,
    )
  }

  async get(owner: EndpointOwner, id: string): Promise<WebhookEndpoint> {
    return toEndpoint(await this.#require(owner, id), this.clock())
  }

  /** @throws EventsError WEBHOOK_URL_REFUSED, WEBHOOK_ENDPOINT_LIMIT */
  async create(owner: EndpointOwner, body: CreateWebhookEndpointBody): Promise<WebhookEndpoint> {
    await this.#checkUrl(body.url)
    const id = uuidv7()
    const now = this.clock()
    await this.db.transaction().execute(async (trx) => {
      // The owner's row serialises creations, so two at once cannot pass the limit together.
      if (owner.userId) {
        await trx
          .selectFrom('users')
          .select('id')
          .where('id', '=', owner.userId)
          .forUpdate()
          .execute()
      } else {
        await trx
          .selectFrom('tenants')
          .select('id')
          .where('id', '=', owner.tenantId)
          .forUpdate()
          .execute()
      }
      const scoped =
        owner.userId === null
          ? trx.selectFrom('webhook_endpoints').where('user_id', 'is', null)
          : trx.selectFrom('webhook_endpoints').where('user_id', '=', owner.userId)
      const count = await scoped
        .where('tenant_id', '=', owner.tenantId)
        .select((eb) => eb.fn.countAll<string>().as('n'))
        .executeTakeFirstOrThrow()
      if (Number(count.n) >= MAX_ENDPOINTS) {
        throw new EventsError({ kind: 'WEBHOOK_ENDPOINT_LIMIT', limit: MAX_ENDPOINTS })
      }
      await trx
        .insertInto('webhook_endpoints')
        .values({
          id,
          tenant_id: owner.tenantId,
          user_id: owner.userId,
          url: body.url,
          description: normaliseName(body.description ?? ''),
          event_kinds: JSON.stringify([...new Set(body.event_kinds ?? [])]),
          enabled: body.enabled ?? true,
          secret: newWebhookSecret(),
          created_at: now,
          updated_at: now,
          created_by_session_id: owner.sessionId ?? null,
        })
        .execute()
      await this.#tell(trx, owner, 'security.webhook_endpoint_added', {
        endpoint_id: id,
        url: body.url,
      })
    })
    return this.get(owner, id)
  }

  /** @throws EventsError WEBHOOK_ENDPOINT_NOT_FOUND, WEBHOOK_URL_REFUSED */
  async update(
    owner: EndpointOwner,
    id: string,
    body: UpdateWebhookEndpointBody,
  ): Promise<WebhookEndpoint> {
    const current = await this.#require(owner, id)
    if (body.url !== undefined) await this.#checkUrl(body.url)
    await this.db.transaction().execute(async (trx) => {
      await trx
        .updateTable('webhook_endpoints')
        .set({
          ...(body.url !== undefined && { url: body.url }),
          ...(body.description !== undefined && { description: normaliseName(body.description) }),
          ...(body.event_kinds !== undefined && {
            event_kinds: JSON.stringify([...new Set(body.event_kinds)]),
          }),
          ...(body.enabled !== undefined && { enabled: body.enabled }),
          updated_at: this.clock(),
        })
        .where('id', '=', id)
        .where('tenant_id', '=', owner.tenantId)
        .execute()
      if (body.url !== undefined && body.url !== current.url) {
        await this.#tell(trx, owner, 'security.webhook_endpoint_changed', {
          endpoint_id: id,
          url: body.url,
          change: 'url',
        })
      }
    })
    return this.get(owner, id)
  }

  /** Removes the endpoint and its delivery log. @throws EventsError WEBHOOK_ENDPOINT_NOT_FOUND */
  async remove(owner: EndpointOwner, id: string): Promise<void> {
    await this.#require(owner, id)
    await this.db
      .deleteFrom('webhook_endpoints')
      .where('id', '=', id)
      .where('tenant_id', '=', owner.tenantId)
      .execute()
  }

  /** @throws EventsError WEBHOOK_ENDPOINT_NOT_FOUND */
  async secret(owner: EndpointOwner, id: string): Promise<WebhookSecret> {
    const row = await this.#owned(owner)
      .select(['secret', 'previous_secret_expires_at'])
      .where('id', '=', id)
      .executeTakeFirst()
    if (!row) throw new EventsError({ kind: 'WEBHOOK_ENDPOINT_NOT_FOUND' })
    const now = this.clock()
    const expires = row.previous_secret_expires_at
    return {
      secret: row.secret,
      previous_secret_expires_at: expires && expires > now ? expires.toISOString() : null,
    }
  }

  /**
   * A new secret; the old one keeps signing beside it (two signatures in
   * `webhook-signature`) for `overlapSeconds`, so the receiver can switch over.
   * @throws EventsError WEBHOOK_ENDPOINT_NOT_FOUND
   */
  async rotate(owner: EndpointOwner, id: string, overlapSeconds = DEFAULT_OVERLAP_SECONDS) {
    const now = this.clock()
    const updated = await this.db.transaction().execute(async (trx) => {
      const scoped =
        owner.userId === null
          ? trx.selectFrom('webhook_endpoints').where('user_id', 'is', null)
          : trx.selectFrom('webhook_endpoints').where('user_id', '=', owner.userId)
      const row = await scoped
        .select(['secret', 'url'])
        .where('tenant_id', '=', owner.tenantId)
        .where('id', '=', id)
        .forUpdate()
        .executeTakeFirst()
      if (!row) return false
      await trx
        .updateTable('webhook_endpoints')
        .set({
          secret: newWebhookSecret(),
          previous_secret: overlapSeconds > 0 ? row.secret : null,
          previous_secret_expires_at:
            overlapSeconds > 0 ? new Date(now.getTime() + overlapSeconds * 1000) : null,
          updated_at: now,
        })
        .where('id', '=', id)
        .execute()
      await this.#tell(trx, owner, 'security.webhook_endpoint_changed', {
        endpoint_id: id,
        url: row.url,
        change: 'secret',
      })
      return true
    })
    if (!updated) throw new EventsError({ kind: 'WEBHOOK_ENDPOINT_NOT_FOUND' })
    return this.secret(owner, id)
  }

  /** The endpoint's delivery log, newest first. @throws EventsError WEBHOOK_ENDPOINT_NOT_FOUND */
  async deliveries(
    owner: EndpointOwner,
    id: string,
    page: { limit: number; offset: number },
  ): Promise<WebhookDeliveryList> {
    await this.#require(owner, id)
    const [rows, count] = await Promise.all([
      deliveryRows(this.db, id)
        .orderBy('d.created_at', 'desc')
        .orderBy('d.id', 'desc')
        .limit(page.limit)
        .offset(page.offset)
        .execute(),
      this.db
        .selectFrom('event_deliveries')
        .where('endpoint_id', '=', id)
        .select((eb) => eb.fn.countAll<string>().as('n'))
        .executeTakeFirstOrThrow(),
    ])
    return pageOf(rows.map(toDelivery), Number(count.n), page)
  }

  /**
   * "Send again": the delivery goes back to pending and is tried at once,
   * whatever became of it (the receiver may have lost it).
   * @throws EventsError WEBHOOK_ENDPOINT_NOT_FOUND, WEBHOOK_DELIVERY_NOT_FOUND
   */
  async redeliver(owner: EndpointOwner, id: string, deliveryId: string): Promise<WebhookDelivery> {
    await this.#require(owner, id)
    const now = this.clock()
    const found = await this.db.transaction().execute(async (trx) => {
      const row = await trx
        .updateTable('event_deliveries')
        .set({ status: 'pending', delivered_at: null })
        .where('id', '=', deliveryId)
        .where('endpoint_id', '=', id)
        .returning('tenant_id')
        .executeTakeFirst()
      if (!row) return false
      await enqueue(trx, {
        kind: DELIVER_JOB,
        tenantId: row.tenant_id,
        payload: { delivery_id: deliveryId },
        runAt: now,
      })
      return true
    })
    if (!found) throw new EventsError({ kind: 'WEBHOOK_DELIVERY_NOT_FOUND' })
    const row = await deliveryRows(this.db, id)
      .where('d.id', '=', deliveryId)
      .executeTakeFirstOrThrow()
    return toDelivery(row)
  }
}

/** An endpoint's deliveries with their events' kinds, as the log shows them. */
const deliveryRows = (db: Kysely<DB>, endpointId: string) =>
  db
    .selectFrom('event_deliveries as d')
    .innerJoin('events as e', 'e.id', 'd.event_id')
    .select([
      'd.id',
      'd.event_id',
      'e.kind',
      'd.status',
      'd.attempts',
      'd.response_status',
      'd.last_error',
      'd.last_attempt_at',
      'd.delivered_at',
      'd.created_at',
    ])
    .where('d.endpoint_id', '=', endpointId)

type DeliveryRow = Awaited<ReturnType<ReturnType<typeof deliveryRows>['executeTakeFirstOrThrow']>>

function toDelivery(row: DeliveryRow): WebhookDelivery {
  return {
    ...row,
    last_attempt_at: row.last_attempt_at?.toISOString() ?? null,
    delivered_at: row.delivered_at?.toISOString() ?? null,
    created_at: row.created_at.toISOString(),
  }
}
