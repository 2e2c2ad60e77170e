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

/** Every call that signs someone in answers with this pair (SPEC.md §7). */
export const TokenPair = Type.Object({
  access_token: Type.String(),
  refresh_token: Type.String(),
  token_type: Type.Literal('bearer'),
  expires_in: Type.Integer({ description: 'Seconds until the access token expires' }),
})
export type TokenPair = Static<typeof TokenPair>
