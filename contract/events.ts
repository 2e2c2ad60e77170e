import { type Static, type TSchema, Type } from '@sinclair/typebox'
import { AUTO_TOP_UP_FAILURES } from './auto-top-up.ts'
import { CARD_CHANNELS, DISPUTE_REASONS, DISPUTE_STATUSES } from './card-choices.ts'
import { KycStatus, oneOf } from './enums.ts'
import {
  alwaysTold,
  EVENT_KINDS,
  type EventKind,
  QUIET_KINDS,
  quiet,
  TOLD_LIKE_SECURITY,
} from './event-kinds.ts'
import { LOCKDOWN_VIAS } from './lockdown.ts'
import { MERCHANT_CATEGORY_GROUPS } from './merchant-categories.ts'
import { Page, PageQuery } from './pagination.ts'

export { alwaysTold, EVENT_KINDS, type EventKind, QUIET_KINDS, quiet, TOLD_LIKE_SECURITY }

export const EventKindSchema = oneOf(EVENT_KINDS)

const Uuid = Type.String({ format: 'uuid' })
const Amount = Type.String({ description: 'A decimal string, e.g. "12.50".' })
const Time = Type.String({ format: 'date-time' })

/** A card payment as every card event tells it (v1). */
const CardPayment = {
  card_id: Uuid,
  transaction_id: Uuid,
  amount: Amount,
  currency: Type.String({ description: 'ISO 4217 code of the card’s currency.' }),
  merchant_name: Type.String(),
}

/**
 * An authorisation as both its events tell it (v1, fields added by issue 30):
 * how the card was presented (null before channels existed) and the
 * merchant's category group.
 */
const CardAuthorization = {
  ...CardPayment,
  channel: Type.Union([oneOf(CARD_CHANNELS), Type.Null()]),
  category: oneOf(MERCHANT_CATEGORY_GROUPS),
}

/** One crypto deposit as both deposit events tell it (v1). */
const Deposit = {
  wallet_id: Uuid,
  transaction_id: Uuid,
  amount: Amount,
  currency: Type.String({ description: 'The currency’s code, e.g. "USDT".' }),
  chain: Type.String(),
  tx_hash: Type.String(),
}

const NullableText = (description: string) =>
  Type.Optional(Type.Union([Type.String(), Type.Null()], { description }))

/**
 * An order's outcome (v1). The fields after `to_currency` came later (issue
 * 27), so events written before them lack them: read them as optional.
 */
const OrderOutcome = {
  order_id: Uuid,
  wallet_id: Uuid,
  type: Type.String({ description: 'The order’s type (contract/orders.ts).' }),
  from_amount: Amount,
  from_currency: Type.String(),
  to_amount: Amount,
  to_currency: Type.String(),
  fee_amount: Type.Optional(
    Type.String({ description: 'Every fee, in `from_currency`, on top of `from_amount`.' }),
  ),
  total_amount: Type.Optional(
    Type.String({ description: 'What left the wallet: `from_amount` + `fee_amount`.' }),
  ),
  counterparty_name: NullableText(
    'Whom it went to or came from: the payee of a send, the sender of a bank deposit.',
  ),
  address: NullableText('The chain address or IBAN paid, or a bank deposit’s sender’s IBAN.'),
  card_last4: NullableText(
    'A top-up onto a stand-alone card’s own account: that card’s last four.',
  ),
}

/** A transfer between people as its events tell it (v1): each person's own side. */
const PersonTransfer = {
  transfer_id: Uuid,
  /** The person's own feed item of it (the screen the event opens). */
  activity_id: Uuid,
  wallet_id: Uuid,
  amount: Amount,
  currency: Type.String(),
  note: Type.Union([Type.String(), Type.Null()]),
}

/** A schedule's run that moved nothing (v1). */
const ScheduleRunOutcome = {
  schedule_id: Uuid,
  run_id: Uuid,
  kind: oneOf(['transfer', 'exchange', 'withdrawal'] as const),
  /** INSUFFICIENT_FUNDS, PRICE_MOVED, or the refusal's problem code. */
  reason: Type.String(),
  occurrence_at: Time,
  amount: Amount,
  currency: Type.String(),
}

/** Every kind's payload schema and its current version. */
export const EVENT_PAYLOADS = {
  'card.authorization.approved': { version: 1, schema: Type.Object(CardAuthorization) },
  'card.authorization.declined': {
    version: 1,
    schema: Type.Object({
      ...CardAuthorization,
      reason: Type.String({ description: 'The decline reason (contract/card-transactions.ts).' }),
    }),
  },
  // The merchant let go of the hold before clearing it (issue 28: the released money is told).
  'card.authorization.reversed': { version: 1, schema: Type.Object(CardPayment) },
  'card.transaction.settled': { version: 1, schema: Type.Object(CardPayment) },
  'card.transaction.refunded': { version: 1, schema: Type.Object(CardPayment) },
  'card.fee.charged': {
    version: 1,
    schema: Type.Object({
      card_id: Uuid,
      transaction_id: Type.Union([Uuid, Type.Null()], {
        description:
          'The card account’s FEE record; null for a stand-alone card’s issue fee, paid from the wallet.',
      }),
      amount: Amount,
      currency: Type.String({ description: 'ISO 4217 code of the card’s currency.' }),
      fee_kind: oneOf(['ISSUE', 'MONTHLY'] as const),
      /** False: the account held too little, nothing was taken and the card stays usable. */
      paid: Type.Boolean(),
    }),
  },
  'card.closed': {
    version: 1,
    schema: Type.Object({
      card_id: Uuid,
      last4: Type.String(),
      returned_amount: Type.Union([Amount, Type.Null()], {
        description:
          'What was left on a stand-alone card, back in its wallet; null when nothing moved.',
      }),
      currency: Type.String({ description: 'ISO 4217 code of the card’s currency.' }),
    }),
  },
  'deposit.detected': { version: 1, schema: Type.Object(Deposit) },
  'deposit.confirmed': { version: 1, schema: Type.Object(Deposit) },
  'fiat.credit.received': {
    version: 1,
    schema: Type.Object({
      fiat_account_id: Uuid,
      credit_id: Uuid,
      amount: Amount,
      currency: Type.String({ description: 'ISO 4217 code of the account’s currency.' }),
      sender_name: Type.Union([Type.String(), Type.Null()], {
        description: 'Who sent it, as their bank named them.',
      }),
      remittance: Type.Union([Type.String(), Type.Null()], {
        description: 'The transfer’s reference, as the sender typed it.',
      }),
    }),
  },
  /**
   * Placed (issue 28): the funds held (a deposit holds nothing and awaits its
   * transfer, `status` PENDING, `deposit_reference` the words it must carry).
   */
  'order.created': {
    version: 1,
    schema: Type.Object({
      ...OrderOutcome,
      status: oneOf(['NEW', 'PENDING'] as const),
      deposit_reference: Type.Union([Type.String(), Type.Null()]),
    }),
  },
  'order.completed': { version: 1, schema: Type.Object(OrderOutcome) },
  'order.failed': {
    version: 1,
    schema: Type.Object({ ...OrderOutcome, reason: Type.Union([Type.String(), Type.Null()]) }),
  },
  /** Cancelled by the person before its rail had it: the held total is back in the wallet. */
  'order.canceled': { version: 1, schema: Type.Object(OrderOutcome) },
  'kyc.status_changed': {
    version: 1,
    schema: Type.Object({
      status: KycStatus,
      previous_status: KycStatus,
      reason: Type.Union([Type.String(), Type.Null()]),
    }),
  },
  'security.sign_in_new_device': {
    version: 1,
    schema: Type.Object({
      session_id: Uuid,
      user_agent: Type.Union([Type.String(), Type.Null()]),
      signed_in_at: Time,
    }),
  },
  'security.api_key_created': {
    version: 1,
    schema: Type.Object({ api_key_id: Uuid, name: Type.String(), role: Type.String() }),
  },
  'security.contact_changed': {
    version: 1,
    schema: Type.Object({
      contact: oneOf(['email', 'phone'] as const),
      /** The new value, masked ("a***@example.com", "+49 *** 67"). */
      masked: Type.String(),
    }),
  },
  'security.password_changed': {
    version: 1,
    schema: Type.Object({
      /** Changed by the person signed in (`change`), or reset with a one-time code (`reset`). */
      via: oneOf(['change', 'reset'] as const),
      changed_at: Time,
    }),
  },
  'card.issued': {
    version: 1,
    schema: Type.Object({
      card_id: Uuid,
      last4: Type.String(),
      form_factor: oneOf(['VIRTUAL', 'PHYSICAL'] as const),
      /** Where a physical card is sent ("London, GB"); null for a virtual one. */
      delivery_to: Type.Union([Type.String(), Type.Null()]),
    }),
  },
  'security.api_key_changed': {
    version: 1,
    schema: Type.Object({
      api_key_id: Uuid,
      name: Type.String(),
      role: Type.String(),
      enabled: Type.Boolean(),
      /** `updated`: its name, role, state or allow-list; `rotated`: a new secret. */
      change: oneOf(['updated', 'rotated'] as const),
    }),
  },
  'security.webhook_endpoint_added': {
    version: 1,
    schema: Type.Object({ endpoint_id: Uuid, url: Type.String() }),
  },
  'security.webhook_endpoint_changed': {
    version: 1,
    schema: Type.Object({
      endpoint_id: Uuid,
      url: Type.String(),
      /** `url`: events now go elsewhere; `secret`: a new signing secret. */
      change: oneOf(['url', 'secret'] as const),
    }),
  },
  'security.push_subscription_added': {
    version: 1,
    schema: Type.Object({
      /** "Chrome, macOS", from the subscribing browser; null when it sent no user agent. */
      device: Type.Union([Type.String(), Type.Null()]),
    }),
  },
  'security.passkey_added': {
    version: 1,
    schema: Type.Object({ passkey_id: Uuid, name: Type.String() }),
  },
  'security.passkey_removed': {
    version: 1,
    schema: Type.Object({ passkey_id: Uuid, name: Type.String() }),
  },
  'transfer.sent': {
    version: 1,
    schema: Type.Object({
      ...PersonTransfer,
      /** The recipient's display name, or the contact a claimable transfer waits for. */
      to_name: Type.String(),
      status: oneOf(['COMPLETE', 'AWAITING_CLAIM'] as const),
    }),
  },
  'transfer.received': {
    version: 1,
    schema: Type.Object({ ...PersonTransfer, from_name: Type.String() }),
  },
  /** To the sender: the contact signed up and the money reached them. */
  'transfer.claimed': {
    version: 1,
    schema: Type.Object({ ...PersonTransfer, to_name: Type.String() }),
  },
  /** To the sender: nobody claimed it in time; the money is back. */
  'transfer.returned': {
    version: 1,
    schema: Type.Object({ ...PersonTransfer, to_name: Type.String() }),
  },
  /** To the requester: their request was paid (its transfer told nobody else twice). */
  'payment_request.paid': {
    version: 1,
    schema: Type.Object({
      ...PersonTransfer,
      payment_request_id: Uuid,
      payer_name: Type.String(),
    }),
  },
  'schedule.run_failed': { version: 1, schema: Type.Object(ScheduleRunOutcome) },
  'schedule.run_skipped': { version: 1, schema: Type.Object(ScheduleRunOutcome) },
  'card.dispute.updated': {
    version: 1,
    schema: Type.Object({
      dispute_id: Uuid,
      card_id: Uuid,
      transaction_id: Uuid,
      /** The disputed payment's activity item. */
      activity_id: Type.Union([Uuid, Type.Null()]),
      status: oneOf(DISPUTE_STATUSES),
      reason: oneOf(DISPUTE_REASONS),
      amount: Amount,
      currency: Type.String(),
      merchant_name: Type.String(),
      /** What is credited for it now: provisionally (a fraud claim) or for good; null: nothing. */
      credited: Type.Union([Amount, Type.Null()]),
      provisional: Type.Boolean(),
    }),
  },
  'card.auto_top_up.placed': {
    version: 1,
    schema: Type.Object({
      fiat_account_id: Uuid,
      order_id: Uuid,
      /** What will arrive on the card account, in its currency. */
      amount: Amount,
      currency: Type.String(),
      /** What the wallet pays, fees included. */
      from_amount: Amount,
      from_currency: Type.String(),
    }),
  },
  'card.auto_top_up.failed': {
    version: 1,
    schema: Type.Object({
      fiat_account_id: Uuid,
      reason: oneOf(AUTO_TOP_UP_FAILURES),
      /** What the top-up would have brought (zero when the cap left nothing). */
      amount: Amount,
      currency: Type.String(),
    }),
  },
  'security.lockdown': {
    version: 1,
    schema: Type.Object({
      state: oneOf(['started', 'lifted'] as const),
      via: oneOf(LOCKDOWN_VIAS),
      reason: Type.Union([Type.String(), Type.Null()]),
      cards_frozen: Type.Integer({ minimum: 0 }),
      sessions_ended: Type.Integer({ minimum: 0 }),
    }),
  },
} as const satisfies Record<EventKind, { version: number; schema: TSchema }>

export type EventPayload<K extends EventKind> = Static<(typeof EVENT_PAYLOADS)[K]['schema']>
export type AnyEventPayload = { [K in EventKind]: EventPayload<K> }[EventKind]

/**
 * The body of every webhook (and of the event inside a push message):
 * the Standard Webhooks shape, `type` + `timestamp` + `data`.
 */
export const EventEnvelope = Type.Object({
  id: Uuid,
  type: EventKindSchema,
  version: Type.Integer({ minimum: 1 }),
  timestamp: Time,
  tenant_id: Uuid,
  data: Type.Record(Type.String(), Type.Unknown()),
})
export type EventEnvelope = Static<typeof EventEnvelope>

/** One entry of the notification centre. `path`: the app screen it is about. */
export const Notification = Type.Object({
  id: Uuid,
  kind: EventKindSchema,
  version: Type.Integer(),
  data: Type.Record(Type.String(), Type.Unknown()),
  path: Type.String(),
  created_at: Time,
  read_at: Type.Union([Time, Type.Null()]),
})
export type Notification = Static<typeof Notification>

export const NotificationList = Type.Object({
  ...Page(Notification).properties,
  unread: Type.Integer({ minimum: 0 }),
})
export type NotificationList = Static<typeof NotificationList>
export const NotificationListQuery = PageQuery

export const MarkNotificationsReadBody = Type.Object(
  {
    /** These; or, without ids, every notification of the person. */
    ids: Type.Optional(Type.Array(Uuid, { minItems: 1, maxItems: 100 })),
  },
  { additionalProperties: false },
)
export type MarkNotificationsReadBody = Static<typeof MarkNotificationsReadBody>

export const UnreadCount = Type.Object({ unread: Type.Integer({ minimum: 0 }) })
export type UnreadCount = Static<typeof UnreadCount>

/** Web push: the server's VAPID public key, and a browser's subscription (PushSubscriptionJSON). */
export const PushConfig = Type.Object({ public_key: Type.String() })
export type PushConfig = Static<typeof PushConfig>

export const PushSubscriptionBody = Type.Object(
  {
    endpoint: Type.String({ format: 'uri', maxLength: 2048 }),
    /**
     * When the push service will drop the subscription (ms since the epoch),
     * or null for never, as `PushSubscription.toJSON()` gives it (Chromium:
     * null). Not kept: an expired subscription's push answers 404/410, and
     * that forgets it.
     */
    expirationTime: Type.Optional(Type.Union([Type.Integer({ minimum: 0 }), Type.Null()])),
    keys: Type.Object(
      {
        p256dh: Type.String({ minLength: 1, maxLength: 256 }),
        auth: Type.String({ minLength: 1, maxLength: 256 }),
      },
      { additionalProperties: false },
    ),
  },
  { additionalProperties: false },
)
export type PushSubscriptionBody = Static<typeof PushSubscriptionBody>

export const PushUnsubscribeBody = Type.Object(
  { endpoint: Type.String({ minLength: 1, maxLength: 2048 }) },
  { additionalProperties: false },
)

/** Which kinds reach the person outside the app (push and Telegram); the centre shows all. */
export const NotificationPreferences = Type.Object({
  muted: Type.Array(EventKindSchema),
})
export type NotificationPreferences = Static<typeof NotificationPreferences>
export const NotificationPreferencesBody = Type.Object(
  { muted: Type.Array(EventKindSchema, { maxItems: EVENT_KINDS.length }) },
  { additionalProperties: false },
)

/** The shape the service worker's `push` handler reads. */
export interface PushMessage {
  title: string
  body: string
  path: string
  event_id: string
  kind: EventKind
  /**
   * An alert that can mean theft carries the way out (issue 30): a one-time
   * token the "That wasn't me" button sends to `POST /api/v2/lockdown/link`,
   * and the button's words.
   */
  lockdown?: { token: string; button: string }
}

/** A developer's webhook endpoint. Its secret is shown by its own call, to its owner. */
export const WebhookEndpoint = Type.Object({
  id: Uuid,
  url: Type.String(),
  description: Type.String(),
  /** Empty: every kind. */
  event_kinds: Type.Array(EventKindSchema),
  enabled: Type.Boolean(),
  created_at: Time,
  updated_at: Time,
  /** After a rotation: until when the previous secret still signs too. */
  previous_secret_expires_at: Type.Union([Time, Type.Null()]),
})
export type WebhookEndpoint = Static<typeof WebhookEndpoint>

export const WebhookEndpointList = Page(WebhookEndpoint)
export type WebhookEndpointList = Static<typeof WebhookEndpointList>
export const WebhookEndpointListQuery = PageQuery

const EndpointUrl = Type.String({ minLength: 1, maxLength: 2048 })
const EndpointKinds = Type.Array(EventKindSchema, { maxItems: EVENT_KINDS.length })
const Description = Type.String({ maxLength: 200 })

export const CreateWebhookEndpointBody = Type.Object(
  {
    url: EndpointUrl,
    description: Type.Optional(Description),
    event_kinds: Type.Optional(EndpointKinds),
    enabled: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
)
export type CreateWebhookEndpointBody = Static<typeof CreateWebhookEndpointBody>

export const UpdateWebhookEndpointBody = Type.Object(
  {
    url: Type.Optional(EndpointUrl),
    description: Type.Optional(Description),
    event_kinds: Type.Optional(EndpointKinds),
    enabled: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
)
export type UpdateWebhookEndpointBody = Static<typeof UpdateWebhookEndpointBody>

export const WebhookSecret = Type.Object({
  /** `whsec_<base64>`: the Standard Webhooks secret. */
  secret: Type.String(),
  previous_secret_expires_at: Type.Union([Time, Type.Null()]),
})
export type WebhookSecret = Static<typeof WebhookSecret>

/** The longest overlap of a rotated-out webhook secret: a week. */
export const MAX_WEBHOOK_OVERLAP_SECONDS = 604_800
export const RotateWebhookSecretBody = Type.Object(
  {
    overlap_seconds: Type.Optional(
      Type.Integer({
        minimum: 0,
        maximum: MAX_WEBHOOK_OVERLAP_SECONDS,
        description: 'How long the old secret keeps signing beside the new one; default 24 h.',
      }),
    ),
  },
  { additionalProperties: false },
)

export const DELIVERY_STATUSES = ['pending', 'delivered', 'failed'] as const
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number]

/** One event sent (or being sent) to one endpoint. */
export const WebhookDelivery = Type.Object({
  id: Uuid,
  event_id: Uuid,
  kind: EventKindSchema,
  status: oneOf(DELIVERY_STATUSES),
  attempts: Type.Integer(),
  response_status: Type.Union([Type.Integer(), Type.Null()]),
  last_error: Type.Union([Type.String(), Type.Null()]),
  last_attempt_at: Type.Union([Time, Type.Null()]),
  delivered_at: Type.Union([Time, Type.Null()]),
  created_at: Time,
})
export type WebhookDelivery = Static<typeof WebhookDelivery>
export const WebhookDeliveryList = Page(WebhookDelivery)
export type WebhookDeliveryList = Static<typeof WebhookDeliveryList>

/** A message the sandbox Telegram bot "sent" (`GET /api/sandbox/outbox/telegram`). */
export const BotMessage = Type.Object({
  id: Uuid,
  chat_id: Type.String(),
  text: Type.String(),
  button_text: Type.Union([Type.String(), Type.Null()]),
  button_url: Type.Union([Type.String(), Type.Null()]),
  /** The "That wasn't me" button of an alert that can mean theft, and what it sends back. */
  lock_button_text: Type.Union([Type.String(), Type.Null()]),
  lock_callback_data: Type.Union([Type.String(), Type.Null()]),
  created_at: Time,
})
export type BotMessage = Static<typeof BotMessage>
export const BotOutbox = Type.Object({ data: Type.Array(BotMessage) })
