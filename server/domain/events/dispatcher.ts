import type { Kysely } from 'kysely'
import {
  type EventEnvelope,
  type EventKind,
  type PushMessage,
  quiet,
} from '../../../contract/events.ts'
import type { DeliveryChannel } from '../../infra/db/events-schema.ts'
import type { DB } from '../../infra/db/schema.ts'
import { enqueueAll, type Job, type JobContext, type JobResult } from '../../infra/jobs.ts'
import type { MessagingProvider } from '../../providers/messaging/messaging.ts'
import type { BotMessenger } from '../../providers/messaging/telegram-bot.ts'
import type { LinkChannel, LockdownLinks } from '../lockdown/links.ts'
import { DISPATCH_JOB } from '../outbox.ts'
import { carriesWayOut, wayOutButton } from './control-wording.ts'
import { eventMessage, openButtonText } from './messages.ts'
import type { WebPushSender } from './push.ts'
import * as repo from './repository.ts'
import {
  deliveryBackoffMs,
  endpointWants,
  eventPath,
  MAX_DELIVERY_ATTEMPTS,
  securityEmail,
} from './rules.ts'
import type { Resolve } from './ssrf.ts'
import { postWebhook, signedHeaders } from './webhook-client.ts'

/** The job that makes one delivery (one event to one destination). */
export const DELIVER_JOB = 'events.deliver'

export interface DispatcherOptions {
  sandbox: boolean
  publicUrl: string
  push: WebPushSender
  bot: BotMessenger
  /** Security kinds go to the person's e-mail too: SMTP, or the sandbox outbox. */
  mail: MessagingProvider
  /** The one-tap lockdown tokens an alert that can mean theft carries (issue 30). */
  lockdownLinks: LockdownLinks
  /** Tests resolve names themselves (the SSRF checks). */
  resolve?: Resolve
}

interface Attempt {
  ok: boolean
  status: number | null
  error: string | null
  /** Trying again cannot help (the endpoint is gone or disabled, the subscription expired). */
  final?: boolean
}

/** The body every webhook carries: the Standard Webhooks shape. */
export function envelopeOf(event: {
  id: string
  tenant_id: string
  kind: EventKind
  version: number
  payload: Record<string, unknown>
  created_at: Date
}): EventEnvelope {
  return {
    id: event.id,
    type: event.kind,
    version: event.version,
    timestamp: event.created_at.toISOString(),
    tenant_id: event.tenant_id,
    data: event.payload,
  }
}

/**
 * Fans events out and makes the deliveries, as two kinds of job:
 *
 * - `events.dispatch` (enqueued with the event, in its transaction; the due ones
 *   are run as one batch, in one transaction of set-based statements): writes the
 *   person's notification and one `event_deliveries` row per destination — the
 *   person's push subscriptions and Telegram chat (unless they muted the kind;
 *   a security kind whatever they muted, and their e-mail too),
 *   the person's own webhook endpoints and the tenant's — and a deliver job for
 *   each row it created. The row's unique key (event, channel, destination) makes
 *   a repeated dispatch create nothing twice.
 * - `events.deliver`: one try of one delivery, recorded on its row; a failure
 *   asks for the next try after a backoff, up to MAX_DELIVERY_ATTEMPTS. A row no
 *   longer pending is left alone, so a delivery that succeeded is never repeated
 *   by its job ("send again" in the developer area is the one deliberate repeat).
 */
export class EventDispatcher {
  constructor(private readonly options: DispatcherOptions) {}

  /** The due dispatch jobs, together: a few set-based statements in one transaction for all. */
  readonly dispatch = async (jobs: Job[], context: JobContext): Promise<void> => {
    // A money command's events share a job (`event_ids`); one told alone, or a job written
    // before they could, names one (`event_id`).
    const ids = jobs.flatMap((job) =>
      Array.isArray(job.payload.event_ids)
        ? job.payload.event_ids.map(String)
        : [String(job.payload.event_id)],
    )
    await context.db.transaction().execute(async (trx) => {
      const events = await repo.findEvents(trx, ids)
      if (events.length === 0) return
      // What the person just did with their own hands is not news to them: webhooks only.
      const told = events.filter((event) => !quiet(event.kind))
      const [, endpoints, people] = await Promise.all([
        repo.insertNotifications(trx, told),
        repo.endpointsFor(
          trx,
          events.map((event) => event.id),
        ),
        repo.peopleChannels(trx, [...new Set(told.map((event) => event.user_id))]),
      ])
      const endpointsOf = new Map<string, typeof endpoints>()
      for (const endpoint of endpoints) {
        endpointsOf.set(endpoint.event_id, [
          ...(endpointsOf.get(endpoint.event_id) ?? []),
          endpoint,
        ])
      }
      const targets = events.flatMap((event): repo.DeliveryTarget[] => {
        const to = (channel: DeliveryChannel, destination: string, endpointId: string | null) => ({
          eventId: event.id,
          tenantId: event.tenant_id,
          channel,
          destination,
          endpointId,
        })
        const personal = repo.personalChannels(people.get(event.user_id), event.kind)
        return [
          ...(endpointsOf.get(event.id) ?? [])
            .filter((endpoint) => endpointWants(endpoint, event.kind))
            .map((endpoint) => to('webhook', endpoint.id, endpoint.id)),
          ...personal.subscriptions.map((subscription) => to('push', subscription.id, null)),
          ...(personal.telegramId ? [to('telegram', personal.telegramId, null)] : []),
          // The address as it is now: a later change of e-mail does not redirect this alert.
          ...(personal.email ? [to('email', personal.email, null)] : []),
        ]
      })
      const created = await repo.insertDeliveries(trx, targets)
      await enqueueAll(
        trx,
        created.map((delivery) => ({
          kind: DELIVER_JOB,
          tenantId: delivery.tenant_id,
          payload: { delivery_id: delivery.id },
          runAt: context.now,
        })),
      )
    })
  }

  readonly deliver = async (job: Job, context: JobContext): Promise<JobResult> => {
    const delivery = await repo.findDelivery(context.db, String(job.payload.delivery_id))
    if (delivery?.status !== 'pending') return undefined
    const outcome = await this.#attempt(context.db, delivery, context.now)
    const attempts = delivery.attempts + 1
    const giveUp = !outcome.ok && (outcome.final || attempts >= MAX_DELIVERY_ATTEMPTS)
    await repo.recordAttempt(context.db, delivery.id, {
      attempts,
      status: outcome.ok ? 'delivered' : giveUp ? 'failed' : 'pending',
      responseStatus: outcome.status,
      error: outcome.error,
      at: context.now,
    })
    if (outcome.ok || giveUp) {
      if (!outcome.ok)
        context.log.warn({ delivery: delivery.id, error: outcome.error }, 'delivery given up')
      return undefined
    }
    return { again: new Date(context.now.getTime() + deliveryBackoffMs(attempts)) }
  }

  async #attempt(db: Kysely<DB>, delivery: repo.DeliveryRow, now: Date): Promise<Attempt> {
    const event = {
      id: delivery.event_id,
      tenant_id: delivery.tenant_id,
      kind: delivery.kind,
      version: delivery.version,
      payload: delivery.payload,
      created_at: delivery.event_created_at,
    }
    switch (delivery.channel) {
      case 'webhook':
        return this.#webhook(db, delivery, event, now)
      case 'push':
        return this.#push(db, delivery, event, now)
      case 'telegram':
        return this.#telegram(db, delivery, event, now)
      case 'email':
        return this.#email(db, delivery, now)
    }
  }

  /**
   * The way out ("That wasn't me") of an alert that can mean theft: a fresh
   * one-time lockdown token for this person and channel; none for the rest.
   */
  #wayOut(delivery: repo.DeliveryRow, channel: LinkChannel, now: Date): string | undefined {
    if (!carriesWayOut(delivery.kind, delivery.payload)) return undefined
    return this.options.lockdownLinks.mint(delivery.user_id, channel, now)
  }

  async #webhook(
    db: Kysely<DB>,
    delivery: repo.DeliveryRow,
    event: Parameters<typeof envelopeOf>[0],
    now: Date,
  ): Promise<Attempt> {
    const endpoint = delivery.endpoint_id
      ? await repo.findEndpointForDelivery(db, delivery.endpoint_id)
      : undefined
    if (!endpoint) return { ok: false, status: null, error: 'endpoint deleted', final: true }
    if (!endpoint.enabled)
      return { ok: false, status: null, error: 'endpoint disabled', final: true }
    const secrets = [endpoint.secret]
    if (
      endpoint.previous_secret &&
      endpoint.previous_secret_expires_at &&
      endpoint.previous_secret_expires_at > now
    ) {
      secrets.push(endpoint.previous_secret)
    }
    const body = JSON.stringify(envelopeOf(event))
    // Standard Webhooks: the id is the event's (the same on every try), the timestamp the try's.
    const headers = signedHeaders({ id: event.id, timestamp: new Date(), body }, secrets)
    return postWebhook(endpoint.url, body, headers, {
      sandbox: this.options.sandbox,
      resolve: this.options.resolve,
    })
  }

  async #message(db: Kysely<DB>, delivery: repo.DeliveryRow) {
    const language = await repo.languageOf(db, delivery.user_id)
    const path = eventPath(delivery.kind, delivery.payload)
    return { language, path, ...eventMessage(delivery.kind, delivery.payload, language) }
  }

  async #push(
    db: Kysely<DB>,
    delivery: repo.DeliveryRow,
    event: { id: string; kind: EventKind },
    now: Date,
  ): Promise<Attempt> {
    const subscription = await repo.findPushSubscription(db, delivery.destination)
    if (!subscription)
      return { ok: false, status: null, error: 'subscription removed', final: true }
    const { title, body, path, language } = await this.#message(db, delivery)
    const token = this.#wayOut(delivery, 'push', now)
    const message: PushMessage = {
      title,
      body,
      path,
      event_id: event.id,
      kind: event.kind,
      ...(token && { lockdown: { token, button: wayOutButton(language) } }),
    }
    const outcome = await this.options.push.send(subscription, message)
    if (outcome.gone) await repo.deletePushSubscription(db, delivery.destination)
    return { ok: outcome.ok, status: outcome.status, error: outcome.error, final: outcome.gone }
  }

  async #email(db: Kysely<DB>, delivery: repo.DeliveryRow, now: Date): Promise<Attempt> {
    const language = await repo.languageOf(db, delivery.user_id)
    const link = `${this.options.publicUrl}${eventPath(delivery.kind, delivery.payload)}`
    const token = this.#wayOut(delivery, 'email', now)
    // The token rides in the fragment: never sent to a server, nor in a Referer.
    const lockdownLink = token && `${this.options.publicUrl}/lockdown#token=${token}`
    const { subject, body } = securityEmail(
      delivery.kind,
      delivery.payload,
      language,
      link,
      lockdownLink,
    )
    return attempted(() =>
      this.options.mail.send({
        tenantId: delivery.tenant_id,
        channel: 'email',
        to: delivery.destination,
        purpose: 'security_notice',
        code: null,
        language,
        subject,
        body,
      }),
    )
  }

  async #telegram(
    db: Kysely<DB>,
    delivery: repo.DeliveryRow,
    event: { tenant_id: string },
    now: Date,
  ): Promise<Attempt> {
    const { title, body, path, language } = await this.#message(db, delivery)
    const token = this.#wayOut(delivery, 'telegram', now)
    return attempted(() =>
      this.options.bot.sendMessage({
        tenantId: event.tenant_id,
        chatId: delivery.destination,
        text: `${title}\n${body}`,
        button: { text: openButtonText(language), url: `${this.options.publicUrl}${path}` },
        ...(token && { lockdown: { text: wayOutButton(language), callbackData: token } }),
      }),
    )
  }
}

/** One try of a provider's send: a throw is a failed attempt, its message the error. */
async function attempted(send: () => Promise<void>): Promise<Attempt> {
  try {
    await send()
    return { ok: true, status: null, error: null }
  } catch (error) {
    return {
      ok: false,
      status: null,
      error: error instanceof Error ? error.message : String(error),
    }
  }
}

export { DISPATCH_JOB }
