import { type Static, Type } from '@sinclair/typebox'
import { oneOf } from './enums.ts'
import { OTP_CHANNELS, OTP_PURPOSES } from './otp.ts'

/**
 * What the outbox holds: one-time codes, the security notices sent by e-mail,
 * and the invitations a transfer to someone without an account sends (no code).
 */
export const OUTBOX_PURPOSES = [...OTP_PURPOSES, 'security_notice', 'transfer_invite'] as const
export type OutboxPurpose = (typeof OUTBOX_PURPOSES)[number]

/** One message the sandbox messaging provider "sent" (`GET /api/sandbox/outbox`). */
export const OutboxMessage = Type.Object({
  id: Type.String({ format: 'uuid' }),
  channel: oneOf(OTP_CHANNELS),
  /** An e-mail address, or a phone as digits. */
  to: Type.String(),
  purpose: oneOf(OUTBOX_PURPOSES),
  /** Null for a security notice and an invitation. */
  code: Type.Union([Type.String(), Type.Null()]),
  subject: Type.Union([Type.String(), Type.Null()]),
  body: Type.String(),
  created_at: Type.String({ format: 'date-time' }),
})
export type OutboxMessage = Static<typeof OutboxMessage>

export const Outbox = Type.Object({ data: Type.Array(OutboxMessage) })
export type Outbox = Static<typeof Outbox>
