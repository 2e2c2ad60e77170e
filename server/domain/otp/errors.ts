import type { OtpChannel } from '../../../contract/otp.ts'
import { DomainError } from '../failure.ts'

/** The failures the one-time-code use cases return; problems.ts maps each to its HTTP answer. */
export type OtpFailure =
  /** create_user: false, and no account has this identifier. */
  | { kind: 'USER_NOT_FOUND' }
  /** A code went to this identifier less than the resend interval ago. */
  | { kind: 'RATE_LIMITED'; retryAfter: number }
  /** Too many wrong codes: nothing is sent or accepted until the block lifts. */
  | { kind: 'OTP_BLOCKED'; blockedUntil: Date }
  /** The messaging provider refused or failed; no code was left usable. */
  | { kind: 'MESSAGE_NOT_DELIVERED' }
  /** Wrong, used, superseded or never-sent code, or one for another purpose or user. */
  | { kind: 'OTP_INVALID'; attemptsLeft: number }
  | { kind: 'OTP_EXPIRED' }
  /** The account is blocked by the tenant. */
  | { kind: 'USER_BLOCKED' }
  /** The new e-mail or phone belongs to another account of the tenant. */
  | { kind: 'CONTACT_TAKEN'; channel: OtpChannel }
  /** The "new" e-mail or phone is the one the account already has. */
  | { kind: 'CONTACT_UNCHANGED'; channel: OtpChannel }
  /** A step-up code has nowhere to go: the account has neither e-mail nor phone. */
  | { kind: 'NO_CONTACT' }

export class OtpError extends DomainError<OtpFailure> {}
