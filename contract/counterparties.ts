import { type Static, Type } from '@sinclair/typebox'
import { CHAIN_IDS } from './catalog.ts'
import { oneOf } from './enums.ts'
import { Page, PageQuery } from './pagination.ts'
import { Address } from './user.ts'

/** docs/product.md §3 */
export const COUNTERPARTY_TYPES = ['INDIVIDUAL', 'BUSINESS'] as const
export type CounterpartyType = (typeof COUNTERPARTY_TYPES)[number]

/** docs/product.md §3: the payout rails a destination can be. */
export const DESTINATION_TYPES = [
  'DOMESTIC_WIRE',
  'ACH',
  'SWIFT',
  'SEPA',
  'CRYPTO_EXTERNAL',
  'CRYPTO_INTERNAL',
] as const
export type DestinationType = (typeof DESTINATION_TYPES)[number]

/** ACH and domestic wires name the kind of US bank account. */
export const BANK_ACCOUNT_TYPES = ['checking', 'savings'] as const
export type BankAccountType = (typeof BANK_ACCOUNT_TYPES)[number]

const nullable = <T extends ReturnType<typeof Type.String>>(schema: T) =>
  Type.Union([schema, Type.Null()])

const Name = Type.String({ minLength: 1, maxLength: 100 })
const Email = Type.String({ format: 'email', maxLength: 254 })
const Phone = Type.String({ minLength: 4, maxLength: 32 })
const Country = Type.String({ pattern: '^[A-Z]{2}$', description: 'ISO 3166-1 alpha-2' })

/**
 * A person or business the wallet's owner pays. INDIVIDUAL needs first and
 * last name; BUSINESS needs the legal name. `name` is what to show: the legal
 * name, or first and last name joined.
 */
export const Counterparty = Type.Object({
  counterparty_account_id: Type.String({ format: 'uuid' }),
  wallet_id: Type.String({ format: 'uuid' }),
  type: oneOf(COUNTERPARTY_TYPES),
  name: Type.String(),
  first_name: Type.Union([Type.String(), Type.Null()]),
  last_name: Type.Union([Type.String(), Type.Null()]),
  legal_name: Type.Union([Type.String(), Type.Null()]),
  email: Type.Union([Type.String(), Type.Null()]),
  phone: Type.Union([Type.String(), Type.Null()]),
  /** Country of residence or incorporation. */
  country: Type.String(),
  address: Type.Union([Address, Type.Null()]),
  /** How many destinations it has (rails it can be paid on). */
  destinations_count: Type.Integer({ minimum: 0 }),
  created_at: Type.String({ format: 'date-time' }),
  updated_at: Type.String({ format: 'date-time' }),
})
export type Counterparty = Static<typeof Counterparty>

/** `POST /counterparties/{wallet_id}`: which names are required depends on `type` (422 naming the field). */
export const CreateCounterpartyBody = Type.Object(
  {
    type: oneOf(COUNTERPARTY_TYPES),
    first_name: Type.Optional(nullable(Name)),
    last_name: Type.Optional(nullable(Name)),
    legal_name: Type.Optional(nullable(Type.String({ minLength: 1, maxLength: 200 }))),
    email: Type.Optional(nullable(Email)),
    phone: Type.Optional(nullable(Phone)),
    country: Country,
    address: Type.Optional(Type.Union([Address, Type.Null()])),
  },
  { additionalProperties: false },
)
export type CreateCounterpartyBody = Static<typeof CreateCounterpartyBody>

/** `PATCH …/{counterparty_account_id}`: any field but `type`; null clears an optional one. */
export const UpdateCounterpartyBody = Type.Object(
  {
    first_name: Type.Optional(nullable(Name)),
    last_name: Type.Optional(nullable(Name)),
    legal_name: Type.Optional(nullable(Type.String({ minLength: 1, maxLength: 200 }))),
    email: Type.Optional(nullable(Email)),
    phone: Type.Optional(nullable(Phone)),
    country: Type.Optional(Country),
    address: Type.Optional(Type.Union([Address, Type.Null()])),
  },
  { additionalProperties: false, minProperties: 1 },
)
export type UpdateCounterpartyBody = Static<typeof UpdateCounterpartyBody>

/** `GET /counterparties/{wallet_id}?type=&search=`: `search` matches any part of the name, any case. */
export const CounterpartyQuery = Type.Composite([
  PageQuery,
  Type.Object({
    type: Type.Optional(oneOf(COUNTERPARTY_TYPES)),
    search: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
  }),
])
export type CounterpartyQuery = Static<typeof CounterpartyQuery>

export const CounterpartyList = Page(Counterparty)
export type CounterpartyList = Static<typeof CounterpartyList>

/**
 * Where a counterparty can be paid. One flat shape for every rail; the fields
 * a rail does not use are null. What each rail requires:
 *
 * | type            | required                                     | optional                |
 * | --------------- | -------------------------------------------- | ----------------------- |
 * | SEPA            | iban                                         | bic, bank_name          |
 * | SWIFT           | bic, account_number (or iban), bank_country  | bank_name               |
 * | ACH             | routing_number, account_number, account_type | bank_name               |
 * | DOMESTIC_WIRE   | routing_number, account_number               | account_type, bank_name |
 * | CRYPTO_EXTERNAL | chain, address                               |                         |
 * | CRYPTO_INTERNAL | wallet_uuid (a wallet of the same tenant)    |                         |
 *
 * Every type takes an optional `label`. IBAN and BIC are checked with
 * ibantools, a routing number by its ABA checksum, an address for its chain.
 * A wrong field answers 422 with `errors[].field` naming it (`/body/iban`).
 * IBANs are stored and answered in electronic format (no spaces, upper case).
 */
export const Destination = Type.Object({
  counterparty_destination_id: Type.String({ format: 'uuid' }),
  counterparty_account_id: Type.String({ format: 'uuid' }),
  type: oneOf(DESTINATION_TYPES),
  label: Type.Union([Type.String(), Type.Null()]),
  iban: Type.Union([Type.String(), Type.Null()]),
  bic: Type.Union([Type.String(), Type.Null()]),
  account_number: Type.Union([Type.String(), Type.Null()]),
  routing_number: Type.Union([Type.String(), Type.Null()]),
  account_type: Type.Union([oneOf(BANK_ACCOUNT_TYPES), Type.Null()]),
  bank_name: Type.Union([Type.String(), Type.Null()]),
  bank_country: Type.Union([Type.String(), Type.Null()]),
  chain: Type.Union([oneOf(CHAIN_IDS), Type.Null()]),
  address: Type.Union([Type.String(), Type.Null()]),
  wallet_uuid: Type.Union([Type.String({ format: 'uuid' }), Type.Null()]),
  /** A short, safe summary to show in lists: "DE89 … 3000", "bc1q…f3k9". */
  display: Type.String(),
  created_at: Type.String({ format: 'date-time' }),
  updated_at: Type.String({ format: 'date-time' }),
})
export type Destination = Static<typeof Destination>

const DestinationFields = {
  label: Type.Optional(nullable(Type.String({ maxLength: 100 }))),
  iban: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
  bic: Type.Optional(Type.String({ minLength: 1, maxLength: 16 })),
  account_number: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
  routing_number: Type.Optional(Type.String({ minLength: 1, maxLength: 16 })),
  account_type: Type.Optional(oneOf(BANK_ACCOUNT_TYPES)),
  bank_name: Type.Optional(nullable(Type.String({ maxLength: 200 }))),
  bank_country: Type.Optional(Type.String({ minLength: 1, maxLength: 8 })),
  chain: Type.Optional(oneOf(CHAIN_IDS)),
  address: Type.Optional(Type.String({ minLength: 1, maxLength: 128 })),
  wallet_uuid: Type.Optional(Type.String({ format: 'uuid' })),
}

/**
 * `POST …/destinations`. The schema only bounds lengths; the rail's own
 * rules (the table on Destination) are checked by the server and answered as
 * 422 naming the field, so a person sees "IBAN: check digits do not match",
 * not "must match a schema in anyOf".
 */
export const CreateDestinationBody = Type.Object(
  { type: oneOf(DESTINATION_TYPES), ...DestinationFields },
  { additionalProperties: false },
)
export type CreateDestinationBody = Static<typeof CreateDestinationBody>

/** `PATCH …/destinations/{id}`: the rail cannot change; the result is checked as a whole again. */
export const UpdateDestinationBody = Type.Object(DestinationFields, {
  additionalProperties: false,
  minProperties: 1,
})
export type UpdateDestinationBody = Static<typeof UpdateDestinationBody>

export const DestinationQuery = Type.Composite([
  PageQuery,
  Type.Object({ type: Type.Optional(oneOf(DESTINATION_TYPES)) }),
])
export type DestinationQuery = Static<typeof DestinationQuery>

export const DestinationList = Page(Destination)
export type DestinationList = Static<typeof DestinationList>
