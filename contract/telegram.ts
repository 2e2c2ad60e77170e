import { type Static, Type } from '@sinclair/typebox'

/** The raw init data string the Mini App was launched with (Telegram signs it). */
export const InitData = Type.String({ minLength: 1, maxLength: 8192 })

/** `POST /auth/sign-in/telegram` */
export const TelegramSignInBody = Type.Object(
  { init_data: InitData },
  { additionalProperties: false },
)
export type TelegramSignInBody = Static<typeof TelegramSignInBody>

/** `POST /auth/sign-up/telegram`: only after the person agreed to the terms. */
export const TelegramSignUpBody = Type.Object(
  { init_data: InitData, terms_accepted: Type.Literal(true) },
  { additionalProperties: false },
)
export type TelegramSignUpBody = Static<typeof TelegramSignUpBody>

/** docs/product.md §3: the Telegram launch user. */
export const TelegramUser = Type.Object({
  id: Type.Integer(),
  first_name: Type.String(),
  last_name: Type.Optional(Type.String()),
  username: Type.Optional(Type.String()),
  language_code: Type.Optional(Type.String()),
  is_premium: Type.Optional(Type.Boolean()),
  photo_url: Type.Optional(Type.String()),
})
export type TelegramUser = Static<typeof TelegramUser>
