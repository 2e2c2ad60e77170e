import { type Static, Type } from '@sinclair/typebox'
import { oneOf } from './enums.ts'

/*
 * Issue 30: "That wasn't me". A lockdown freezes every card, ends every
 * other session and refuses the acts a thief cashes out with, until the
 * person lifts it (with the second look, not before LOCKDOWN_MIN_SECONDS).
 */

/**
 * What a lockdown refuses (409 LOCKDOWN_ACTIVE), as the policy table names
 * each route's act (server/route-policy.ts `refusedInLockdown`).
 */
export const LOCKDOWN_ACTS = [
  'withdrawals',
  'payouts',
  'api_keys',
  'webhooks',
  'contact_changes',
] as const
export type LockdownAct = (typeof LOCKDOWN_ACTS)[number]

/** How it began: in the app, or by one tap on an alert (push, the Telegram bot, an e-mail). */
export const LOCKDOWN_VIAS = ['app', 'push', 'telegram', 'email'] as const
export type LockdownVia = (typeof LOCKDOWN_VIAS)[number]

/** A lockdown is lifted no earlier than this after it began: a thief's hurry is the tell. */
export const LOCKDOWN_MIN_SECONDS = 600

/** `POST /api/v2/user/lockdown` */
export const StartLockdownBody = Type.Object(
  { reason: Type.Optional(Type.String({ maxLength: 500 })) },
  { additionalProperties: false },
)
export type StartLockdownBody = Static<typeof StartLockdownBody>

const Time = Type.String({ format: 'date-time' })

/**
 * `GET /api/v2/user/lockdown` (and what starting one answers). While `active`:
 * when it began, from when it may be lifted, what it refuses, how many cards
 * it froze and sessions it ended. Not active: every field but `refused` null
 * or zero (`refused` always lists what a lockdown would refuse).
 */
export const Lockdown = Type.Object({
  active: Type.Boolean(),
  started_at: Type.Union([Time, Type.Null()]),
  lift_after: Type.Union([Time, Type.Null()]),
  reason: Type.Union([Type.String(), Type.Null()]),
  via: Type.Union([oneOf(LOCKDOWN_VIAS), Type.Null()]),
  refused: Type.Array(oneOf(LOCKDOWN_ACTS)),
  cards_frozen: Type.Integer({ minimum: 0 }),
  sessions_ended: Type.Integer({ minimum: 0 }),
})
export type Lockdown = Static<typeof Lockdown>

/**
 * `POST /api/v2/lockdown/link`: the one-time token an alert carried (the
 * e-mail's link, the push notification's button). No sign-in: the token
 * names the person, once, for 24 hours.
 */
export const LockdownLinkBody = Type.Object(
  { token: Type.String({ minLength: 1, maxLength: 200 }) },
  { additionalProperties: false },
)
export type LockdownLinkBody = Static<typeof LockdownLinkBody>

/** What a one-tap lockdown answers: done, in the person's language. */
export const LockdownDone = Type.Object({
  locked: Type.Literal(true),
  message: Type.String(),
})
export type LockdownDone = Static<typeof LockdownDone>

/**
 * `POST /api/sandbox/telegram/callback`: what Telegram sends the bot when
 * someone taps an inline button (a callback query), reduced to what matters:
 * the chat it came from and the button's `callback_data` (1–64 bytes).
 */
export const TelegramCallbackBody = Type.Object(
  {
    chat_id: Type.String({ minLength: 1, maxLength: 32 }),
    callback_data: Type.String({ minLength: 1, maxLength: 64 }),
  },
  { additionalProperties: false },
)
export type TelegramCallbackBody = Static<typeof TelegramCallbackBody>

/** The bot's answer to the callback (answerCallbackQuery's text): done, or why not. */
export const TelegramCallbackAnswer = Type.Object({
  locked: Type.Boolean(),
  text: Type.String(),
})
export type TelegramCallbackAnswer = Static<typeof TelegramCallbackAnswer>
