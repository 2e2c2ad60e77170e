import { type Static, Type } from '@sinclair/typebox'

export const Email = Type.String({ format: 'email', maxLength: 254 })

/** Strength rules grow in the sign-in issue; the length bounds hold from the start. */
export const Password = Type.String({ minLength: 8, maxLength: 256 })

export const EmailPasswordBody = Type.Object(
  { email: Email, password: Password },
  { additionalProperties: false },
)
export type EmailPasswordBody = Static<typeof EmailPasswordBody>

/** Passwords are not re-validated for strength at sign-in: old ones must keep working. */
export const SignInBody = Type.Object(
  { email: Email, password: Type.String({ minLength: 1, maxLength: 256 }) },
  { additionalProperties: false },
)
export type SignInBody = Static<typeof SignInBody>

export const RefreshBody = Type.Object(
  { refresh_token: Type.String({ minLength: 1, maxLength: 512 }) },
  { additionalProperties: false },
)
export type RefreshBody = Static<typeof RefreshBody>

/**
 * `POST /user/password`: a new password, the current one with it when the
 * account has one (an account without — Telegram, passkey or code only —
 * sets its first with the second look alone).
 */
export const ChangePasswordBody = Type.Object(
  {
    current_password: Type.Optional(Type.String({ minLength: 1, maxLength: 256 })),
    new_password: Password,
  },
  { additionalProperties: false },
)
export type ChangePasswordBody = Static<typeof ChangePasswordBody>

/** `GET /user/password`: whether the account has a password, and since when. */
export const PasswordStatus = Type.Object({
  has_password: Type.Boolean(),
  changed_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
})
export type PasswordStatus = Static<typeof PasswordStatus>

/** The answer to a password change: when, and how many other sessions it ended. */
export const PasswordChanged = Type.Object({
  changed_at: Type.String({ format: 'date-time' }),
  sessions_ended: Type.Integer({ minimum: 0 }),
})
export type PasswordChanged = Static<typeof PasswordChanged>

/** Every call that signs someone in answers with this pair (docs/product.md §7). */
export const TokenPair = Type.Object({
  access_token: Type.String(),
  refresh_token: Type.String(),
  token_type: Type.Literal('bearer'),
  expires_in: Type.Integer({ description: 'Seconds until the access token expires' }),
})
export type TokenPair = Static<typeof TokenPair>
