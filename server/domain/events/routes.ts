import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import { Type } from '@sinclair/typebox'
import type { FastifyInstance } from 'fastify'
import {
  BotOutbox,
  CreateWebhookEndpointBody,
  MarkNotificationsReadBody,
  NotificationList,
  NotificationListQuery,
  NotificationPreferences,
  NotificationPreferencesBody,
  PushConfig,
  PushSubscriptionBody,
  PushUnsubscribeBody,
  RotateWebhookSecretBody,
  UnreadCount,
  UpdateWebhookEndpointBody,
  WebhookDelivery,
  WebhookDeliveryList,
  WebhookEndpoint,
  WebhookEndpointList,
  WebhookEndpointListQuery,
  WebhookSecret,
} from '../../../contract/events.ts'
import { Problem } from '../../../contract/problem.ts'
import { assertNever, ProblemError, translateErrors } from '../../infra/problem.ts'
import { listBotMessages } from '../../providers/messaging/telegram-bot.ts'
import { developerProblems, developerSchema, sendCreated } from '../developer/session-routes.ts'
import { EventsError } from './errors.ts'
import type { UrlRefusal } from './ssrf.ts'

const REFUSALS: Record<UrlRefusal, string> = {
  invalid: 'The URL must be an absolute http(s) URL.',
  not_https: 'Webhook URLs must use https.',
  credentials: 'Put no user name or password in the URL; verify our signature instead.',
  unresolvable: 'The URL’s host name does not resolve.',
  private_address:
    'The URL points to a private, loopback or link-local address; webhooks go only to public addresses.',
}

/** The one switch from event failures to HTTP answers. */
export const toProblem = (error: unknown) => {
  if (!(error instanceof EventsError)) return undefined
  const failure = error.failure
  switch (failure.kind) {
    case 'WEBHOOK_ENDPOINT_NOT_FOUND':
      return new ProblemError(404, 'WEBHOOK_ENDPOINT_NOT_FOUND', 'No such webhook endpoint.')
    case 'WEBHOOK_DELIVERY_NOT_FOUND':
      return new ProblemError(404, 'WEBHOOK_DELIVERY_NOT_FOUND', 'No such delivery.')
    case 'WEBHOOK_ENDPOINT_LIMIT':
      return new ProblemError(
        409,
        'WEBHOOK_ENDPOINT_LIMIT',
        `At most ${failure.limit} webhook endpoints: delete one you no longer use first.`,
      )
    case 'WEBHOOK_URL_REFUSED':
      return new ProblemError(422, 'WEBHOOK_URL_REFUSED', REFUSALS[failure.reason], {
        title: 'Unprocessable Content',
        errors: [{ field: 'url', message: REFUSALS[failure.reason] }],
      })
    case 'PUSH_ENDPOINT_REFUSED':
      return new ProblemError(422, 'PUSH_ENDPOINT_REFUSED', REFUSALS[failure.reason], {
        title: 'Unprocessable Content',
        errors: [{ field: 'endpoint', message: REFUSALS[failure.reason] }],
      })
    case 'PUSH_KEYS_INVALID':
      return new ProblemError(
        422,
        'PUSH_KEYS_INVALID',
        `keys.${failure.key} ${failure.message}: send PushSubscription.toJSON() as the browser gives it.`,
        {
          title: 'Unprocessable Content',
          errors: [{ field: `/body/keys/${failure.key}`, message: failure.message }],
        },
      )
    case 'NOTIFICATION_KIND_NOT_MUTABLE': {
      const message = 'Security alerts reach you on every channel: they cannot be muted.'
      return new ProblemError(
        422,
        failure.kind,
        `${failure.fields.map((fault) => fault.kind).join(', ')}: ${message} Leave them out of muted.`,
        {
          title: 'Unprocessable Content',
          errors: failure.fields.map((fault) => ({ field: fault.field, message })),
        },
      )
    }
    default:
      return assertNever(failure)
  }
}

const problems = developerProblems
const listed = { tags: ['notifications'] }

/** v2: the notification centre, web push subscriptions and preferences of the signed-in person. */
export async function notificationRoutes(app: FastifyInstance) {
  const api = app.withTypeProvider<TypeBoxTypeProvider>()
  const { notifications, push } = app.events

  api.get(
    '/notifications',
    {
      schema: {
        ...listed,
        summary: 'The person’s notifications, newest first, with the unread count',
        description:
          'Each has the event’s `kind`, versioned `data` and the app `path` it is about.',
        querystring: NotificationListQuery,
        response: { 200: NotificationList, ...problems },
      },
    },
    (request) => notifications.list(request.auth, request.query),
  )

  api.get(
    '/notifications/unread',
    {
      schema: {
        ...listed,
        summary: 'How many notifications are unread (the bell’s badge)',
        response: { 200: UnreadCount, ...problems },
      },
    },
    (request) => notifications.unread(request.auth),
  )

  api.post(
    '/notifications/read',
    {
      schema: {
        ...listed,
        summary: 'Mark notifications read: the ones named, or all but security alerts',
        description:
          'Without `ids`, security alerts (`security.*`, `card.issued`) stay unread: they are ' +
          'read by their id, once opened.',
        body: MarkNotificationsReadBody,
        response: { 200: UnreadCount, ...problems },
      },
    },
    (request) => notifications.markRead(request.auth, request.body.ids),
  )

  api.get(
    '/notifications/preferences',
    {
      schema: {
        ...listed,
        summary: 'Event kinds the person muted outside the app (push and Telegram)',
        response: { 200: NotificationPreferences, ...problems },
      },
    },
    (request) => notifications.preferences(request.auth),
  )

  api.put(
    '/notifications/preferences',
    {
      schema: {
        ...listed,
        summary: 'Replace the muted event kinds',
        description:
          'Security kinds (`security.*`) and `card.issued` reach every channel whatever is muted: ' +
          'naming one is 422 NOTIFICATION_KIND_NOT_MUTABLE.',
        body: NotificationPreferencesBody,
        response: { 200: NotificationPreferences, ...problems },
      },
    },
    (request) =>
      translateErrors(notifications.setPreferences(request.auth, request.body.muted), toProblem),
  )

  api.get(
    '/push/config',
    {
      schema: {
        ...listed,
        summary: 'The VAPID public key to subscribe to web push with',
        response: { 200: PushConfig, ...problems },
      },
    },
    () => ({ public_key: push.publicKey }),
  )

  api.post(
    '/push/subscriptions',
    {
      schema: {
        ...listed,
        summary: 'Turn web push on for this device (a PushSubscription as JSON)',
        body: PushSubscriptionBody,
        response: { 204: Type.Null(), ...problems },
      },
    },
    async (request, reply) => {
      await translateErrors(
        notifications.subscribe(request.auth, request.body, request.headers['user-agent']),
        toProblem,
      )
      return reply.code(204).send(null)
    },
  )

  api.post(
    '/push/subscriptions/delete',
    {
      schema: {
        ...listed,
        summary: 'Turn web push off for this device',
        body: PushUnsubscribeBody,
        response: { 204: Type.Null(), ...problems },
      },
    },
    async (request, reply) => {
      await notifications.unsubscribe(request.auth, request.body.endpoint)
      return reply.code(204).send(null)
    },
  )
}

const developer = developerSchema
const EndpointParams = Type.Object({ id: Type.String({ format: 'uuid' }) })
const DeliveryParams = Type.Object({
  id: Type.String({ format: 'uuid' }),
  delivery_id: Type.String({ format: 'uuid' }),
})

/** v1: the developer's webhook endpoints, their secrets and delivery logs. */
export async function webhookRoutes(app: FastifyInstance) {
  const api = app.withTypeProvider<TypeBoxTypeProvider>()
  const { endpoints } = app.events
  const notFound = { 404: Problem }

  api.get(
    '/developer/webhooks',
    {
      schema: {
        ...developer,
        summary: 'The person’s webhook endpoints, newest first',
        querystring: WebhookEndpointListQuery,
        response: { 200: WebhookEndpointList, ...problems },
      },
    },
    (request) => endpoints.list(request.auth, request.query),
  )

  api.post(
    '/developer/webhooks',
    {
      schema: {
        ...developer,
        summary: 'Register a webhook endpoint',
        description:
          'Events of the person (of `event_kinds`, or every kind when empty) are POSTed to `url`, ' +
          'signed the Standard Webhooks way with the endpoint’s own secret. Outside the sandbox ' +
          'the URL must be https on a public address (422 WEBHOOK_URL_REFUSED).',
        body: CreateWebhookEndpointBody,
        response: { 201: WebhookEndpoint, 409: Problem, ...problems },
      },
    },
    (request, reply) => sendCreated(reply, endpoints.create(request.auth, request.body), toProblem),
  )

  api.patch(
    '/developer/webhooks/:id',
    {
      schema: {
        ...developer,
        summary: 'Change an endpoint’s URL, description, event kinds or whether it is enabled',
        params: EndpointParams,
        body: UpdateWebhookEndpointBody,
        response: { 200: WebhookEndpoint, ...notFound, ...problems },
      },
    },
    (request) =>
      translateErrors(endpoints.update(request.auth, request.params.id, request.body), toProblem),
  )

  api.delete(
    '/developer/webhooks/:id',
    {
      schema: {
        ...developer,
        summary: 'Delete an endpoint and its delivery log',
        params: EndpointParams,
        response: { 204: Type.Null(), ...notFound, ...problems },
      },
    },
    async (request, reply) => {
      await translateErrors(endpoints.remove(request.auth, request.params.id), toProblem)
      return reply.code(204).send(null)
    },
  )

  api.get(
    '/developer/webhooks/:id/secret',
    {
      schema: {
        ...developer,
        summary: 'The endpoint’s signing secret (`whsec_…`)',
        params: EndpointParams,
        response: { 200: WebhookSecret, ...notFound, ...problems },
      },
    },
    (request) => translateErrors(endpoints.secret(request.auth, request.params.id), toProblem),
  )

  api.post(
    '/developer/webhooks/:id/rotate-secret',
    {
      schema: {
        ...developer,
        summary: 'Give the endpoint a new secret, the old one signing too for an overlap',
        description:
          'During the overlap (`overlap_seconds`, default a day; 0 ends the old secret at once) ' +
          '`webhook-signature` carries two signatures, one per secret.',
        params: EndpointParams,
        body: RotateWebhookSecretBody,
        response: { 200: WebhookSecret, ...notFound, ...problems },
      },
    },
    (request) =>
      translateErrors(
        endpoints.rotate(request.auth, request.params.id, request.body.overlap_seconds),
        toProblem,
      ),
  )

  api.get(
    '/developer/webhooks/:id/deliveries',
    {
      schema: {
        ...developer,
        summary: 'The endpoint’s delivery log: status, attempts, last answer',
        params: EndpointParams,
        querystring: WebhookEndpointListQuery,
        response: { 200: WebhookDeliveryList, ...notFound, ...problems },
      },
    },
    (request) =>
      translateErrors(
        endpoints.deliveries(request.auth, request.params.id, request.query),
        toProblem,
      ),
  )

  api.post(
    '/developer/webhooks/:id/deliveries/:delivery_id/retry',
    {
      schema: {
        ...developer,
        summary: 'Send a delivery again, now',
        params: DeliveryParams,
        response: { 200: WebhookDelivery, ...notFound, ...problems },
      },
    },
    (request) =>
      translateErrors(
        endpoints.redeliver(request.auth, request.params.id, request.params.delivery_id),
        toProblem,
      ),
  )
}

const BotOutboxQuery = Type.Object(
  {
    chat_id: Type.Optional(Type.String({ minLength: 1, maxLength: 32 })),
    tenant_id: Type.Optional(Type.String({ format: 'uuid' })),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 50 })),
  },
  { additionalProperties: false },
)

/** /api/sandbox/outbox/telegram: the messages the sandbox Telegram bot "sent". */
export async function sandboxBotRoutes(app: FastifyInstance) {
  app.withTypeProvider<TypeBoxTypeProvider>().get(
    '/outbox/telegram',
    {
      schema: {
        tags: ['sandbox'],
        summary: 'Bot messages the sandbox Telegram bot "sent", newest first',
        querystring: BotOutboxQuery,
        response: { 200: BotOutbox, 422: Problem },
      },
    },
    async (request) => ({
      data: await listBotMessages(app.db, {
        chatId: request.query.chat_id,
        tenantId: request.query.tenant_id?.toLowerCase(),
        limit: request.query.limit ?? 50,
      }),
    }),
  )
}
