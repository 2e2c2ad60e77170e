import { type Static, Type } from '@sinclair/typebox'
import { oneOf } from './enums.ts'
import type { OrderType } from './orders.ts'
import { RATE_BASES } from './rates.ts'
import { WALLET_TYPES } from './wallets.ts'

/**
 * What a tenant can switch on or off. A product switched off is hidden by the
 * app, and its calls answer 403 PRODUCT_DISABLED (docs/decisions.md).
 * - crypto: addresses, crypto deposits and withdrawals
 * - fiat: bank rails — SEPA/SWIFT deposits and payouts
 * - cards: card issuing, card transactions, the fiat accounts of the card
 *   programs (a prepaid card's money lives in one) and their top-ups
 * - exchange: exchanging one currency for another
 * - p2p: the P2P (trading) wallet's market; no screen of its own yet
 */
export const PRODUCTS = ['crypto', 'fiat', 'cards', 'exchange', 'p2p'] as const
export type Product = (typeof PRODUCTS)[number]

/** Which product each order type belongs to: `POST /orders/{type}` and `/orders/calc` are refused with it. */
export const ORDER_TYPE_PRODUCT: Readonly<Record<OrderType, Product>> = {
  DEPOSIT_FIAT_SEPA: 'fiat',
  DEPOSIT_FIAT_SWIFT: 'fiat',
  WITHDRAWAL_FIAT_SEPA: 'fiat',
  TRANSFER_CARD_PREPAID: 'cards',
  TRANSFER_CARD_SUBACCOUNT: 'cards',
  TRANSFER_CARD_WHOLESALE: 'cards',
  WITHDRAWAL_CRYPTO: 'crypto',
  EXCHANGE_CRYPTO_INTERNAL: 'exchange',
}

const HexColor = Type.String({ pattern: '^#[0-9a-f]{6}$', description: '#rrggbb, lower case' })
const nullable = <T extends ReturnType<typeof Type.String>>(schema: T) =>
  Type.Union([schema, Type.Null()])
/** https://…, or a path on the app's own origin ("/logo.svg"). */
const Link = Type.String({ minLength: 1, maxLength: 2048 })

export const Products = Type.Object(
  Object.fromEntries(PRODUCTS.map((product) => [product, Type.Boolean()])) as Record<
    Product,
    ReturnType<typeof Type.Boolean>
  >,
)
export type Products = Static<typeof Products>

/**
 * `GET /api/v2/tenants/config`: everything the app needs to dress and trim
 * itself for the tenant named by X-Tenant-Id. Public: the sign-in screen is
 * branded before anyone signs in, and nothing here is a secret.
 */
export const TenantConfig = Type.Object({
  id: Type.String({ format: 'uuid' }),
  name: Type.String(),
  branding: Type.Object({
    primary_color: HexColor,
    accent_color: HexColor,
    /** A path on the app's own origin ("/branding/logo.svg"): the CSP shows no other images. */
    logo_url: nullable(Link),
  }),
  products: Products,
  /** The wallet types a person may open here, in the tenant's order. */
  wallet_types: Type.Array(oneOf(WALLET_TYPES)),
  /** What totals are shown in until the person picks another: one of the rate bases. */
  default_display_currency: oneOf(RATE_BASES),
  /** ISO 3166-1 alpha-2, sorted: where the tenant takes customers. */
  supported_countries: Type.Array(Type.String({ pattern: '^[A-Z]{2}$' })),
  support: Type.Object({
    email: Type.String({ format: 'email' }),
    phone: nullable(Type.String()),
    url: nullable(Link),
  }),
  /** The card-secret exchange's RSA public key (SPKI PEM), as `GET /api/v1/issuing/config/secret-key`. */
  card_secret_public_key: Type.String(),
  /** Where the app goes once a sign-out is done; null: its own sign-in screen. */
  logout_url: nullable(Link),
})
export type TenantConfig = Static<typeof TenantConfig>

/**
 * What an operator sets (the admin CLI, the seed file): the config without
 * its id and public key, flat where the CLI's flags are (`--products.cards=false`).
 * `supported_countries: null` means every country of GET /location/countries.
 */
export interface TenantSettings {
  name: string
  primary_color: string
  accent_color: string
  logo_url: string | null
  products: Products
  wallet_types: string[]
  default_display_currency: string
  supported_countries: string[] | null
  support_email: string
  support_phone: string | null
  support_url: string | null
  logout_url: string | null
}
