/**
 * Events (issue 20): what happened, told to the person (in the app, by push,
 * by Telegram) and to developers (webhooks signed the Standard Webhooks way).
 * The names are stable; each payload carries a version, bumped only by a
 * breaking change (a field removed or its meaning changed; a new field is not).
 */
export const EVENT_KINDS = [
  'card.authorization.approved',
  'card.authorization.declined',
  'card.transaction.settled',
  'card.transaction.refunded',
  'deposit.detected',
  'deposit.confirmed',
  'order.completed',
  'order.failed',
  'kyc.status_changed',
  'security.sign_in_new_device',
  'security.api_key_created',
  'security.contact_changed',
  'security.password_changed',
] as const
export type EventKind = (typeof EVENT_KINDS)[number]
