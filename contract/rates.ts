import { type Static, Type } from '@sinclair/typebox'
import { oneOf } from './enums.ts'

/** The currencies a rate can be quoted in: the fiat of the catalogue, which is also the app's display choice. */
export const RATE_BASES = ['USD', 'EUR', 'GBP'] as const
export type RateBase = (typeof RATE_BASES)[number]

/** `GET /rates?base=` — USD when not given. */
export const RatesQuery = Type.Object({
  base: Type.Optional(oneOf(RATE_BASES)),
})
export type RatesQuery = Static<typeof RatesQuery>

export const Rate = Type.Object({
  /** A currency code of the catalogue; tokens share their code's rate on every chain. */
  code: Type.String(),
  /** Units of `base` per 1 unit of `code`, a decimal string with at most 8 places ("97342.18"). */
  rate: Type.String({ pattern: '^(0|[1-9][0-9]*)(\\.[0-9]{1,8})?$' }),
})
export type Rate = Static<typeof Rate>

export const RateList = Type.Object({
  base: oneOf(RATE_BASES),
  /** When the provider's prices were taken: ISO 8601 UTC. */
  as_of: Type.String({ format: 'date-time' }),
  /** In catalogue order, the base itself included ("1.00"); a code without a price is left out. */
  rates: Type.Array(Rate),
})
export type RateList = Static<typeof RateList>
