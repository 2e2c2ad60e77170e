import { type Static, Type } from '@sinclair/typebox'
import { KycStatus, oneOf } from './enums.ts'
import { LANGUAGES } from './languages.ts'

const nullable = <T extends ReturnType<typeof Type.String>>(schema: T) =>
  Type.Union([schema, Type.Null()])

export const User = Type.Object({
  id: Type.String({ format: 'uuid' }),
  email: nullable(Type.String()),
  /** Digits only, as used to sign in (docs/product.md §3). */
  phone: nullable(Type.String()),
  /** The Telegram account this user signs in with, if any. */
  telegram_id: nullable(Type.String()),
  kyc_status: KycStatus,
  created_at: Type.String({ format: 'date-time' }),
})
export type User = Static<typeof User>

/** The languages a profile may choose (contract/languages.ts). */
export const USER_LANGUAGES = LANGUAGES

export const Address = Type.Object(
  {
    /** ISO 3166-1 alpha-2, one of GET /location/countries. */
    country: Type.String({ pattern: '^[A-Z]{2}$' }),
    city: Type.String({ minLength: 1, maxLength: 100 }),
    line1: Type.String({ minLength: 1, maxLength: 200 }),
    line2: Type.Optional(nullable(Type.String({ maxLength: 200 }))),
    postal_code: Type.String({ minLength: 1, maxLength: 20 }),
    state: Type.Optional(nullable(Type.String({ maxLength: 100 }))),
  },
  { additionalProperties: false },
)
export type Address = Static<typeof Address>

export const UserData = Type.Object({
  first_name: nullable(Type.String()),
  last_name: nullable(Type.String()),
  /** `YYYY-MM-DD` */
  date_of_birth: nullable(Type.String({ format: 'date' })),
  language: Type.Union([oneOf(USER_LANGUAGES), Type.Null()]),
  address: Type.Union([Address, Type.Null()]),
  /** From the Telegram launch user, when the account came from Telegram. */
  username: nullable(Type.String()),
  photo_url: nullable(Type.String()),
  is_premium: Type.Boolean(),
  /**
   * Whether other people of the tenant may find the person by e-mail, phone
   * or Telegram username (GET /people/lookup) and pay them at once. On for
   * Telegram sign-ups, off for the rest (docs/decisions.md).
   */
  people_discoverable: Type.Boolean(),
  updated_at: Type.String({ format: 'date-time' }),
})
export type UserData = Static<typeof UserData>

const Name = Type.String({ minLength: 1, maxLength: 100 })

/**
 * `PATCH /user/user-data`: only the fields sent change; null clears one.
 * Rules beyond the schema (an adult's birth date, a known country) live in
 * server/domain/user/rules.ts and answer 422 the same way.
 */
export const UserDataPatch = Type.Object(
  {
    first_name: Type.Optional(Type.Union([Name, Type.Null()])),
    last_name: Type.Optional(Type.Union([Name, Type.Null()])),
    date_of_birth: Type.Optional(Type.Union([Type.String({ format: 'date' }), Type.Null()])),
    language: Type.Optional(Type.Union([oneOf(USER_LANGUAGES), Type.Null()])),
    address: Type.Optional(Type.Union([Address, Type.Null()])),
    people_discoverable: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false, minProperties: 1 },
)
export type UserDataPatch = Static<typeof UserDataPatch>
