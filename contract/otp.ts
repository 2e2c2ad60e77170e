import { type Static, Type } from '@sinclair/typebox'
import { Email, Password } from './auth.ts'
import { oneOf } from './enums.ts'
import { LANGUAGES } from './languages.ts'

/** A phone as typed: "+1 (415) 555-2671". The server validates and keeps digits only (docs/product.md §3). */
export const Phone = Type.String({ minLength: 3, maxLength: 32 })

/** Six digits, as sent. */
export const OtpToken = Type.String({ pattern: '^[0-9]{6}$' })

export const OTP_CHANNELS = ['email', 'sms'] as const
export type OtpChannel = (typeof OTP_CHANNELS)[number]

/** Why a code was sent; a code is good only for its own purpose. */
export const OTP_PURPOSES = [
  'sign_in',
  'change_email',
  'change_phone',
  'step_up',
  'password_reset',
] as const
export const OtpPurpose = oneOf(OTP_PURPOSES)
export type OtpPurpose = (typeof OTP_PURPOSES)[number]

/** Language of the message; defaults to the account's or English. */
const Language = Type.Optional(oneOf(LANGUAGES))

const sendOptions = {
  /** false: only existing accounts get a code (default true: the first code creates the account). */
  create_user: Type.Optional(Type.Boolean()),
  language: Language,
}

/** `POST /auth/sign-in/omni/email/otp` */
export const EmailOtpRequest = Type.Object(
  { email: Email, ...sendOptions },
  { additionalProperties: false },
)
export type EmailOtpRequest = Static<typeof EmailOtpRequest>

/** `POST /auth/sign-in/omni/phone/otp` */
export const PhoneOtpRequest = Type.Object(
  { phone: Phone, ...sendOptions },
  { additionalProperties: false },
)
export type PhoneOtpRequest = Static<typeof PhoneOtpRequest>

/** The answer to every "send a code" call. */
export const OtpSent = Type.Object({
  channel: oneOf(OTP_CHANNELS),
  /** Where it went, masked: "a•••@example.com", "•••••••2671". */
  destination: Type.String(),
  expires_in: Type.Integer({ description: 'Seconds the code stays valid' }),
  resend_in: Type.Integer({ description: 'Seconds before another code can be sent' }),
})
export type OtpSent = Static<typeof OtpSent>

/** `POST /auth/verify/email/otp` (docs/product.md §7) */
export const EmailOtpVerify = Type.Object(
  { email: Email, token: OtpToken, type: Type.Literal('email') },
  { additionalProperties: false },
)
export type EmailOtpVerify = Static<typeof EmailOtpVerify>

/** `POST /auth/verify/phone/otp` (docs/product.md §7) */
export const PhoneOtpVerify = Type.Object(
  { phone: Phone, token: OtpToken, type: Type.Literal('sms') },
  { additionalProperties: false },
)
export type PhoneOtpVerify = Static<typeof PhoneOtpVerify>

/**
 * `POST /auth/password/reset`: the e-mail or phone the account signs in
 * with. Answered the same whether there is such an account or not.
 */
export const PasswordResetRequest = Type.Union([
  Type.Object({ email: Email, language: Language }, { additionalProperties: false }),
  Type.Object({ phone: Phone, language: Language }, { additionalProperties: false }),
])
export type PasswordResetRequest = Static<typeof PasswordResetRequest>

/** `POST /auth/password/reset/confirm`: the code sent there, and the new password. */
export const PasswordResetConfirm = Type.Union([
  Type.Object(
    { email: Email, token: OtpToken, new_password: Password },
    { additionalProperties: false },
  ),
  Type.Object(
    { phone: Phone, token: OtpToken, new_password: Password },
    { additionalProperties: false },
  ),
])
export type PasswordResetConfirm = Static<typeof PasswordResetConfirm>

/** Two-step contact change: `PATCH /user/email` sends a code to the new address… */
export const EmailChangeRequest = Type.Object({ email: Email }, { additionalProperties: false })
export type EmailChangeRequest = Static<typeof EmailChangeRequest>
/** …and `POST /user/email` confirms it. */
export const EmailChangeConfirm = Type.Object(
  { email: Email, token: OtpToken },
  { additionalProperties: false },
)
export type EmailChangeConfirm = Static<typeof EmailChangeConfirm>

export const PhoneChangeRequest = Type.Object({ phone: Phone }, { additionalProperties: false })
export type PhoneChangeRequest = Static<typeof PhoneChangeRequest>
export const PhoneChangeConfirm = Type.Object(
  { phone: Phone, token: OtpToken },
  { additionalProperties: false },
)
export type PhoneChangeConfirm = Static<typeof PhoneChangeConfirm>
