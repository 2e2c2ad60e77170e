import type { ColumnType, Generated } from 'kysely'
import type { DeliveryStatus, EventKind } from '../../../contract/events.ts'

/** The tables of migration 0022 (issue 20: events), joined into `DB` in schema.ts. */

type CreatedAt = ColumnType<Date, Date | undefined, Date>
type Json<T> = ColumnType<T, string, string>
type CreatedBy = ColumnType<string | null, string | null | undefined, string | null>

export interface EventsTable {
  id: string
  tenant_id: string
  user_id: string
  kind: EventKind
  version: number
  payload: Json<Record<string, unknown>>
  created_at: CreatedAt
}

export interface NotificationsTable {
  event_id: string
  tenant_id: string
  user_id: string
  created_at: Date
  read_at: ColumnType<Date | null, Date | null | undefined, Date | null>
}

export interface WebhookEndpointsTable {
  id: string
  tenant_id: string
  /** Null: the tenant's own endpoint (every event of the tenant). */
  user_id: string | null
  url: string
  description: Generated<string>
  event_kinds: ColumnType<EventKind[], string | undefined, string>
  enabled: Generated<boolean>
  secret: string
  previous_secret: ColumnType<string | null, string | null | undefined, string | null>
  previous_secret_expires_at: ColumnType<Date | null, Date | null | undefined, Date | null>
  created_at: CreatedAt
  updated_at: CreatedAt
  /** The session that registered it (migration 0027); null before it, and for the tenant's. */
  created_by_session_id: CreatedBy
}

export interface PushSubscriptionsTable {
  id: string
  tenant_id: string
  user_id: string
  endpoint: string
  p256dh: string
  auth: string
  user_agent: string | null
  created_at: CreatedAt
  /** The session that subscribed (migration 0027); null before it. */
  created_by_session_id: CreatedBy
}

export interface NotificationMutesTable {
  user_id: string
  kind: EventKind
  tenant_id: string
}

/** `email`: a security kind, to the person's e-mail (migration 0027). */
export type DeliveryChannel = 'webhook' | 'push' | 'telegram' | 'email'

export interface EventDeliveriesTable {
  id: string
  tenant_id: string
  event_id: string
  channel: DeliveryChannel
  destination: string
  endpoint_id: string | null
  status: ColumnType<DeliveryStatus, DeliveryStatus | undefined, DeliveryStatus>
  attempts: Generated<number>
  last_attempt_at: Date | null
  response_status: number | null
  last_error: string | null
  delivered_at: Date | null
  created_at: CreatedAt
}

export interface SandboxBotMessagesTable {
  id: string
  tenant_id: string
  chat_id: string
  text: string
  button_text: string | null
  button_url: string | null
  /** Migration 0034: an alert's "That wasn't me" button. */
  lock_button_text: ColumnType<string | null, string | null | undefined, string | null>
  lock_callback_data: ColumnType<string | null, string | null | undefined, string | null>
  created_at: CreatedAt
}

export interface EventTables {
  events: EventsTable
  notifications: NotificationsTable
  webhook_endpoints: WebhookEndpointsTable
  push_subscriptions: PushSubscriptionsTable
  notification_mutes: NotificationMutesTable
  event_deliveries: EventDeliveriesTable
  sandbox_bot_messages: SandboxBotMessagesTable
}
