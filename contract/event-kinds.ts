/**
 * Events (issue 20): what happened, told to the person (in the app, by push,
 * by Telegram) and to developers (webhooks signed the Standard Webhooks way).
 * The names are stable; each payload carries a version, bumped only by a
 * breaking change (a field removed or its meaning changed; a new field is not).
 */
export const EVENT_KINDS = [
  'card.authorization.approved',
  'card.authorization.declined',
  'card.authorization.reversed',
  'card.transaction.settled',
  'card.transaction.refunded',
  'card.issued',
  'card.fee.charged',
  'card.closed',
  'card.dispute.updated',
  'card.auto_top_up.placed',
  'card.auto_top_up.failed',
  'deposit.detected',
  'deposit.confirmed',
  'fiat.credit.received',
  'order.created',
  'order.completed',
  'order.failed',
  'order.canceled',
  'kyc.status_changed',
  'security.sign_in_new_device',
  'security.api_key_created',
  'security.contact_changed',
  'security.password_changed',
  'security.api_key_changed',
  'security.webhook_endpoint_added',
  'security.webhook_endpoint_changed',
  'security.push_subscription_added',
  'security.passkey_added',
  'security.passkey_removed',
  'transfer.sent',
  'transfer.received',
  'transfer.claimed',
  'transfer.returned',
  'payment_request.paid',
  'schedule.run_failed',
  'schedule.run_skipped',
  'security.lockdown',
] as const
export type EventKind = (typeof EVENT_KINDS)[number]

/**
 * Kinds outside `security.` that are told like them: a new card is money made
 * movable, and a card sent to a stranger's address is how a stolen session cashes out.
 */
export const TOLD_LIKE_SECURITY: readonly EventKind[] = ['card.issued']

/**
 * Whether a kind reaches the person on every channel whatever they muted —
 * the notification centre, push, Telegram and their e-mail — and stays unread
 * until opened (issue 26). Every `security.*` kind is, by its prefix: a kind
 * added later needs no list to be told.
 */
export const alwaysTold = (kind: string): boolean =>
  kind.startsWith('security.') || (TOLD_LIKE_SECURITY as readonly string[]).includes(kind)

/**
 * Kinds the person caused with their own hands — placing an order, cancelling
 * one — told to webhooks only: neither the notification centre nor push nor
 * Telegram, where a row for what one just did is noise beside the order's
 * outcome, while a developer's integration still hears every order
 * (docs/decisions.md, "quiet kinds").
 * Nothing to mute, so the preferences do not list them.
 */
export const QUIET_KINDS: readonly EventKind[] = ['order.created', 'order.canceled']

/** Whether a kind stays off the person's own channels (centre, push, Telegram) whatever they chose. */
export const quiet = (kind: string): boolean => (QUIET_KINDS as readonly string[]).includes(kind)
