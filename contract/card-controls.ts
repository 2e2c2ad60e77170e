import { type Static, Type } from '@sinclair/typebox'
import {
  CARD_CHANNELS,
  type CardChannel,
  CONTROL_INTERVALS,
  type ControlInterval,
  DEFAULT_CHANNELS,
} from './card-choices.ts'
import { oneOf } from './enums.ts'
import {
  MERCHANT_CATEGORIES,
  MERCHANT_CATEGORY_GROUPS,
  type MerchantCategoryGroup,
  merchantCategoryOf,
} from './merchant-categories.ts'
import { Amount } from './money.ts'

export {
  CARD_CHANNELS,
  type CardChannel,
  CONTROL_INTERVALS,
  type ControlInterval,
  DEFAULT_CHANNELS,
  MERCHANT_CATEGORIES,
  MERCHANT_CATEGORY_GROUPS,
  type MerchantCategoryGroup,
  merchantCategoryOf,
}

/*
 * Issue 30: what a card may be used for (after Stripe Issuing's
 * spending_controls and Revolut's card security screen). The sandbox card
 * network applies them before the balance; a payment they refuse is declined
 * with CHANNEL_BLOCKED, COUNTRY_BLOCKED, MERCHANT_BLOCKED, CATEGORY_BLOCKED or
 * CATEGORY_LIMIT_EXCEEDED (contract/card-transactions.ts).
 */

const Country = Type.String({ pattern: '^[A-Z]{2}$', description: 'ISO 3166-1 alpha-2.' })
export const CategorySchema = oneOf(MERCHANT_CATEGORY_GROUPS)

/** A cap on one category's spending, in the currency of the card's account. */
export const CategoryLimit = Type.Object(
  {
    category: CategorySchema,
    interval: oneOf(CONTROL_INTERVALS),
    amount: Amount,
  },
  { additionalProperties: false },
)
export type CategoryLimit = Static<typeof CategoryLimit>

/**
 * `GET` / `PUT /api/v1/issuing/cards/{id}/controls`: the whole set, replaced
 * by a PUT. `channels`: each way of using the card on or off (a new card:
 * every one but magstripe). `blocked_categories`: merchant category groups
 * refused (contract/merchant-categories.ts: a group is MCC ranges).
 * `blocked_countries` / `allowed_countries`: where the merchant is; with
 * `allowed_countries` a list, only those are taken (null: anywhere not
 * blocked). `blocked_merchants`: names refused, compared case- and
 * space-insensitively. `category_limits`: at most one per category and
 * interval, each a positive amount.
 */
export const CardControls = Type.Object(
  {
    channels: Type.Object(
      {
        online: Type.Boolean(),
        contactless: Type.Boolean(),
        chip: Type.Boolean(),
        magstripe: Type.Boolean(),
        atm: Type.Boolean(),
      },
      { additionalProperties: false },
    ),
    blocked_categories: Type.Array(CategorySchema, { maxItems: MERCHANT_CATEGORY_GROUPS.length }),
    blocked_countries: Type.Array(Country, { maxItems: 250 }),
    allowed_countries: Type.Union([Type.Array(Country, { maxItems: 250 }), Type.Null()]),
    blocked_merchants: Type.Array(Type.String({ minLength: 1, maxLength: 100 }), {
      maxItems: 50,
    }),
    category_limits: Type.Array(CategoryLimit, {
      maxItems: MERCHANT_CATEGORY_GROUPS.length * CONTROL_INTERVALS.length,
    }),
  },
  { additionalProperties: false },
)
export type CardControls = Static<typeof CardControls>

/** What a card that nobody has set controls for answers. */
export const defaultControls = (): CardControls => ({
  channels: { ...DEFAULT_CHANNELS },
  blocked_categories: [],
  blocked_countries: [],
  allowed_countries: null,
  blocked_merchants: [],
  category_limits: [],
})
