import { type Static, Type } from '@sinclair/typebox'
import { oneOf } from './enums.ts'
import { Page } from './pagination.ts'

/** docs/product.md §3 */
export const CURRENCY_TYPES = ['token', 'native', 'fiat'] as const
export type CurrencyType = (typeof CURRENCY_TYPES)[number]

/** The chains the platform supports; an id is stable and used in paths (`/addresses/{chain}`). */
export const CHAIN_IDS = ['bitcoin', 'ethereum', 'tron', 'polygon', 'solana'] as const
export type ChainId = (typeof CHAIN_IDS)[number]

/** How addresses on a chain are written; the address validators and the UI key off this. */
export const ADDRESS_FORMATS = ['bech32', 'evm', 'tron', 'solana'] as const
export type AddressFormat = (typeof ADDRESS_FORMATS)[number]

export const Chain = Type.Object({
  id: oneOf(CHAIN_IDS),
  name: Type.String(),
  /** Code of the chain's native currency (BTC, ETH, TRX, POL, SOL). */
  native_currency: Type.String(),
  address_format: oneOf(ADDRESS_FORMATS),
  /** Confirmations after which a deposit is complete. */
  confirmations: Type.Integer({ minimum: 1 }),
})
export type Chain = Static<typeof Chain>

export const Currency = Type.Object({
  uuid: Type.String({ format: 'uuid' }),
  /** USDT on Tron and USDT on Ethereum share a code and differ in chain and uuid. */
  code: Type.String(),
  name: Type.String(),
  type: oneOf(CURRENCY_TYPES),
  decimals: Type.Integer({ minimum: 0, maximum: 18 }),
  /** The chain of a token or native coin; null for fiat. */
  chain: Type.Union([oneOf(CHAIN_IDS), Type.Null()]),
})
export type Currency = Static<typeof Currency>

/** `GET /currencies?type=&chain=&code=` — the whole catalogue on one page. */
export const CurrencyQuery = Type.Object({
  type: Type.Optional(oneOf(CURRENCY_TYPES)),
  chain: Type.Optional(oneOf(CHAIN_IDS)),
  code: Type.Optional(Type.String({ minLength: 1, maxLength: 16 })),
})
export const CurrencyList = Page(Currency)
export type CurrencyList = Static<typeof CurrencyList>

/** `GET /chains?address_format=` */
export const ChainQuery = Type.Object({
  address_format: Type.Optional(oneOf(ADDRESS_FORMATS)),
})
export const ChainList = Page(Chain)
export type ChainList = Static<typeof ChainList>
