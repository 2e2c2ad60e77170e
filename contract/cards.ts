import { type Static, Type } from '@sinclair/typebox'
import {
  cardFinished,
  cardRevealable,
  DELIVERY_STATUSES,
  type DeliveryStatus,
} from './card-rules.ts'
import { oneOf } from './enums.ts'
import {
  CARD_FORM_FACTORS,
  CARD_STATUSES,
  CARD_TYPES,
  FiatAccount,
  SUB_ACCOUNT_TYPES,
} from './fiat-accounts.ts'
import { Amount } from './money.ts'
import { VISIBLE_CHARACTER } from './names.ts'
import { Page, PageQuery } from './pagination.ts'

/** docs/product.md §4 (defined in fiat-accounts.ts, which lists an account's cards). */
export { CARD_STATUSES }
export type CardStatus = (typeof CARD_STATUSES)[number]
export type CardFormFactor = (typeof CARD_FORM_FACTORS)[number]
export { cardFinished, cardRevealable, DELIVERY_STATUSES, type DeliveryStatus }

const uuid = Type.String({ format: 'uuid' })

/**
 * What a card may spend, in the currency of its fiat account. Every amount is
 * positive and per_transaction ≤ daily ≤ monthly.
 */
export const CardLimits = Type.Object(
  { per_transaction: Amount, daily: Amount, monthly: Amount },
  { additionalProperties: false },
)
export type CardLimits = Static<typeof CardLimits>

/**
 * Printable text, not blank: no control characters, something besides spaces
 * and the invisible characters a name loses (contract/names.ts).
 */
const PRINTABLE = `^(?=.*${VISIBLE_CHARACTER})[^\\u0000-\\u001f\\u007f]*$`
const Line = (maxLength: number) => Type.String({ minLength: 1, maxLength, pattern: PRINTABLE })

/**
 * Where a PHYSICAL card is sent. `country` is an ISO 3166-1 alpha-2 code the
 * country list knows (`GET /api/v2/location/countries`, else 422
 * INVALID_DELIVERY_ADDRESS on `/body/delivery_address/country`); `postal_code`
 * letters, digits, spaces and hyphens.
 */
export const DeliveryAddress = Type.Object(
  {
    recipient_name: Line(100),
    line1: Line(100),
    line2: Type.Optional(Type.String({ maxLength: 100, pattern: '^[^\\u0000-\\u001f\\u007f]*$' })),
    city: Line(60),
    postal_code: Type.String({
      minLength: 1,
      maxLength: 20,
      pattern: '^[A-Za-z0-9][A-Za-z0-9 -]*$',
    }),
    country: Type.String({ pattern: '^[A-Z]{2}$' }),
  },
  { additionalProperties: false },
)
export type DeliveryAddress = Static<typeof DeliveryAddress>

/** A PHYSICAL card's delivery; null for a VIRTUAL card. */
export const CardDelivery = Type.Object({
  address: DeliveryAddress,
  status: oneOf(DELIVERY_STATUSES),
  updated_at: Type.String({ format: 'date-time' }),
})
export type CardDelivery = Static<typeof CardDelivery>

/**
 * A card as lists and actions answer it. The number is never here: only its
 * last four digits. `fiat_account.type` is the sub-account type of the
 * account the card spends from.
 */
export const Card = Type.Object({
  id: uuid,
  wallet_uuid: uuid,
  program_id: uuid,
  nick_name: Type.Union([Type.String(), Type.Null()]),
  last4: Type.String({ pattern: '^[0-9]{4}$' }),
  expiry_month: Type.Integer({ minimum: 1, maximum: 12 }),
  expiry_year: Type.Integer({ minimum: 2000, maximum: 2999 }),
  status: oneOf(CARD_STATUSES),
  /**
   * FROZEN by a lockdown (issue 30): it stays frozen when the lockdown is
   * lifted, until the person unfreezes it themselves.
   */
  frozen_by_lockdown: Type.Boolean(),
  form_factor: oneOf(CARD_FORM_FACTORS),
  card_type: oneOf(CARD_TYPES),
  currency_uuid: uuid,
  currency: Type.String(),
  /** True for a card opened with `/issuing/cards/create`: its fiat account is its own. */
  stand_alone: Type.Boolean(),
  fiat_account: Type.Object({ id: uuid, type: oneOf(SUB_ACCOUNT_TYPES) }),
  limits: CardLimits,
  /**
   * A PHYSICAL card is issued INACTIVE with its delivery ORDERED; once
   * DELIVERED it is activated with `PATCH /issuing/cards/{id}/activate`.
   */
  delivery: Type.Union([CardDelivery, Type.Null()]),
  created_at: Type.String({ format: 'date-time' }),
  updated_at: Type.String({ format: 'date-time' }),
})
export type Card = Static<typeof Card>

/**
 * `GET /issuing/cards/{id}`: the card with the full fiat account it spends
 * from, whose `type` is the card's own account type (docs/product.md §3).
 */
export const CardDetail = Type.Composite([
  Type.Omit(Card, ['fiat_account']),
  Type.Object({
    fiat_account: Type.Composite([FiatAccount, Type.Object({ type: oneOf(SUB_ACCOUNT_TYPES) })]),
  }),
])
export type CardDetail = Static<typeof CardDetail>

export const CardList = Page(Card)
export type CardList = Static<typeof CardList>

/** `GET /issuing/cards`: the caller's cards, narrowed by any of the filters. */
export const CardListQuery = Type.Composite([
  PageQuery,
  Type.Object({
    wallet_uuid: Type.Optional(uuid),
    sub_account_type: Type.Optional(oneOf(SUB_ACCOUNT_TYPES)),
    fiat_account_id: Type.Optional(uuid),
  }),
])
export type CardListQuery = Static<typeof CardListQuery>

/** 1 to 64 characters, no control characters, not blank (surrounding spaces are trimmed). */
const NickName = Line(64)

/**
 * The idempotency key of a card creation: `request_id`, else the
 * `Idempotency-Key` header, else none. The same key with the same body answers
 * the first 201 again (header `Idempotent-Replayed: true`); with another body,
 * 409 IDEMPOTENCY_CONFLICT.
 */
const RequestId = Type.String({ minLength: 1, maxLength: 200 })

/**
 * `POST /issuing/cards/create`: a stand-alone card. A new fiat account is
 * opened for it in the wallet under the program, which must be an ACTIVE
 * prepaid program offering the form factor. Limits default to the issuer's.
 *
 * A PHYSICAL card needs `delivery_address` (422 DELIVERY_ADDRESS_REQUIRED on
 * `/body/delivery_address`); a VIRTUAL one refuses it (422
 * DELIVERY_ADDRESS_NOT_ALLOWED). The program's issue fee, if any, is paid
 * from the wallet's balance in the program's currency (the new account is
 * empty): 422 INSUFFICIENT_FUNDS on `/body/wallet_uuid` and no card when it
 * falls short.
 */
export const CreateCardBody = Type.Object(
  {
    wallet_uuid: uuid,
    program_id: uuid,
    form_factor: oneOf(CARD_FORM_FACTORS),
    nick_name: Type.Optional(NickName),
    limits: Type.Optional(CardLimits),
    delivery_address: Type.Optional(DeliveryAddress),
    request_id: Type.Optional(RequestId),
  },
  { additionalProperties: false },
)
export type CreateCardBody = Static<typeof CreateCardBody>

/**
 * `POST /issuing/cards/balance`: a card spending from an existing ACTIVE fiat
 * account of the caller (not one that belongs to a stand-alone card), under
 * that account's program. Delivery address and idempotency as for `/create`;
 * the issue fee is paid from the account itself (422 INSUFFICIENT_FUNDS on
 * `/body/fiat_account_id`).
 */
export const CreateBalanceCardBody = Type.Object(
  {
    fiat_account_id: uuid,
    form_factor: oneOf(CARD_FORM_FACTORS),
    nick_name: Type.Optional(NickName),
    limits: Type.Optional(CardLimits),
    delivery_address: Type.Optional(DeliveryAddress),
    request_id: Type.Optional(RequestId),
  },
  { additionalProperties: false },
)
export type CreateBalanceCardBody = Static<typeof CreateBalanceCardBody>

/**
 * `PATCH /issuing/cards/{id}/activate`: an INACTIVE PHYSICAL card whose
 * delivery is DELIVERED becomes ACTIVE when `cvv` is the 3-digit security
 * code printed on it — the one thing only the plastic carries (no answer of
 * the API shows it before activation). Check order: any other status, or a
 * virtual card, 409 CARD_STATUS_CONFLICT; not delivered yet, 409
 * CARD_NOT_DELIVERED; another code, 422 ACTIVATION_CODE_INVALID on
 * `/body/cvv`. Five wrong codes per card within an hour (counted in the
 * database) answer 429 RATE_LIMITED with Retry-After until the hour is over.
 */
export const ActivateCardBody = Type.Object(
  { cvv: Type.String({ pattern: '^[0-9]{3}$' }) },
  { additionalProperties: false },
)
export type ActivateCardBody = Static<typeof ActivateCardBody>

/** `PATCH /issuing/cards/{id}/limits` */
export const UpdateCardLimitsBody = CardLimits

/**
 * `PATCH /issuing/cards/{id}/update`: renames the card. The same request_id
 * with the same nick_name answers the card again (header
 * `Idempotent-Replayed: true`) without renaming it back; with another
 * nick_name, 409 IDEMPOTENCY_CONFLICT.
 */
export const UpdateCardBody = Type.Object(
  { nick_name: NickName, request_id: Type.String({ minLength: 1, maxLength: 200 }) },
  { additionalProperties: false },
)
export type UpdateCardBody = Static<typeof UpdateCardBody>

/**
 * `POST /issuing/cards/{id}/sensitive/secretkey` (docs/product.md §5, §7, §9).
 *
 * The client makes a fresh random 32-byte key K, then encrypts the UTF-8 JSON
 * `{"key":"<K, standard base64>","timestamp":<Date.now(), milliseconds>}`
 * with the server's RSA public key (RSA-OAEP, SHA-256 for both the hash and
 * MGF1, no label; `GET /api/v1/issuing/config/secret-key`) and sends the
 * ciphertext as standard base64 in `encrypted_key`.
 *
 * Refused: a timestamp more than 60 s away from the server's clock (422
 * SECRET_KEY_STALE), an `encrypted_key` the server has seen before (409
 * SECRET_KEY_REPLAYED), one it cannot decrypt or whose content is not that
 * JSON (422 SECRET_KEY_INVALID).
 */
export const SecretKeyBody = Type.Object(
  { encrypted_key: Type.String({ minLength: 1, maxLength: 4096 }) },
  { additionalProperties: false },
)
export type SecretKeyBody = Static<typeof SecretKeyBody>

/**
 * The answer: `data` is standard base64 of AES-256-CBC (key K, PKCS#7
 * padding, the 16-byte `iv`, also standard base64) over the UTF-8 JSON
 * `{"data":{"pan":"<16 digits>","expiry":"MM/YY","cvv":"<3 digits>"}}`.
 */
export const SecretKeyReply = Type.Object({
  success: Type.Literal(true),
  encrypted: Type.Literal(true),
  data: Type.String(),
  iv: Type.String(),
})
export type SecretKeyReply = Static<typeof SecretKeyReply>

/** The plaintext inside `SecretKeyReply.data`, once decrypted. */
export interface CardSecrets {
  data: { pan: string; expiry: string; cvv: string }
}

/**
 * `GET /api/v1/issuing/config/secret-key`: the RSA public key the client
 * encrypts its key with (issue 8's tenant config will carry it too).
 */
export const SecretPublicKey = Type.Object({
  algorithm: Type.Literal('RSA-OAEP-256'),
  /** SubjectPublicKeyInfo, PEM. */
  public_key_pem: Type.String(),
})
export type SecretPublicKey = Static<typeof SecretPublicKey>

/** `GET /api/v1/vcards/cards/{id}/sensitive/otp`: a code shown once, valid until expires_at. */
export const CardOtp = Type.Object({
  code: Type.String({ pattern: '^[0-9]{6}$' }),
  expires_at: Type.String({ format: 'date-time' }),
})
export type CardOtp = Static<typeof CardOtp>

export const CARD_REVEAL_KINDS = ['SECRETS', 'OTP'] as const

/** One line of a card's reveal log: who asked (the session) for what, when. */
export const CardReveal = Type.Object({
  id: uuid,
  kind: oneOf(CARD_REVEAL_KINDS),
  session_id: uuid,
  created_at: Type.String({ format: 'date-time' }),
})
export type CardReveal = Static<typeof CardReveal>

export const CardRevealList = Page(CardReveal)
export type CardRevealList = Static<typeof CardRevealList>
