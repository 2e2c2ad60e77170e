import { type Static, Type } from '@sinclair/typebox'
import { oneOf } from './enums.ts'
import { OTP_CHANNELS, OtpPurpose } from './otp.ts'

/** One message the sandbox messaging provider "sent" (`GET /api/sandbox/outbox`). */
export const OutboxMessage = Type.Object({
  id: Type.String({ format: 'uuid' }),
  channel: oneOf(OTP_CHANNELS),
  /** An e-mail address, or a phone as digits. */
  to: Type.String(),
  purpose: OtpPurpose,
  code: Type.String(),
  subject: Type.Union([Type.String(), Type.Null()]),
  body: Type.String(),
  created_at: Type.String({ format: 'date-time' }),
})
export type OutboxMessage = Static<typeof OutboxMessage>

export const Outbox = Type.Object({ data: Type.Array(OutboxMessage) })
export type Outbox = Static<typeof Outbox>
