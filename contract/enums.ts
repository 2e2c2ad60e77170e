import { type TLiteral, type TUnion, Type } from '@sinclair/typebox'

/** A schema accepting exactly the listed strings, typed as their union. */
export const oneOf = <const T extends readonly string[]>(values: T) =>
  Type.Union(values.map((value) => Type.Literal(value))) as TUnion<TLiteral<T[number]>[]>

/** docs/product.md §4: the verification states a user's identity check can be in. */
export const KYC_STATUSES = [
  'APPROVED',
  'DECLINED',
  'PENDING',
  'HOLD',
  'DOUBLE',
  'SOFT_REJECT',
  'REJECT',
  'UNVERIFIED',
] as const
export const KycStatus = oneOf(KYC_STATUSES)
export type KycStatus = (typeof KYC_STATUSES)[number]
