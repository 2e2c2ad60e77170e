import { type Static, Type } from '@sinclair/typebox'
import { oneOf } from './enums.ts'
import { Amount } from './money.ts'

/*
 * Issue 30: a balance card account that tops itself up (after CypherD and
 * Bridge). When a card payment's clearing leaves the account below `below`,
 * an order at a firm quote of that moment brings it back to `top_up_to`,
 * paid from the wallet in `from_currency`, within `daily_cap` a UTC day.
 */

const Uuid = Type.String({ format: 'uuid' })

/**
 * Why a top-up did not happen. `INSUFFICIENT_FUNDS`: the wallet held too
 * little; `DAILY_CAP_REACHED`: the day's cap was used up; `RATES_UNAVAILABLE`:
 * no price to quote at; `QUOTE_REFUSED`: the amount was outside what an order
 * takes; `ACCOUNT_UNAVAILABLE`: the account or wallet can no longer take it;
 * `KYC_REQUIRED`: the person is not verified.
 */
export const AUTO_TOP_UP_FAILURES = [
  'INSUFFICIENT_FUNDS',
  'DAILY_CAP_REACHED',
  'RATES_UNAVAILABLE',
  'QUOTE_REFUSED',
  'ACCOUNT_UNAVAILABLE',
  'KYC_REQUIRED',
] as const
export type AutoTopUpFailure = (typeof AUTO_TOP_UP_FAILURES)[number]

/**
 * `PUT /api/v1/fiat_accounts/{id}/auto-top-up`: amounts in the account's
 * currency; `below` > 0, `top_up_to` > `below`, `daily_cap` > 0 (what may
 * arrive on the account by auto top-up in one UTC day). `from_currency` is a
 * currency's uuid: the account's own currency, or USDT/USDC converted at the
 * quote's rate. Every field is needed while `enabled`; off, only `enabled`.
 */
export const AutoTopUpBody = Type.Object(
  {
    enabled: Type.Boolean(),
    below: Type.Optional(Amount),
    top_up_to: Type.Optional(Amount),
    from_wallet_uuid: Type.Optional(Uuid),
    from_currency: Type.Optional(Uuid),
    daily_cap: Type.Optional(Amount),
  },
  { additionalProperties: false },
)
export type AutoTopUpBody = Static<typeof AutoTopUpBody>

const Nullable = <T extends ReturnType<typeof Type.String>>(schema: T) =>
  Type.Union([schema, Type.Null()])

/** The account's auto top-up, with today's use and the last try. */
export const AutoTopUp = Type.Object({
  fiat_account_id: Uuid,
  enabled: Type.Boolean(),
  below: Nullable(Amount),
  top_up_to: Nullable(Amount),
  from_wallet_uuid: Nullable(Uuid),
  from_currency: Nullable(Uuid),
  daily_cap: Nullable(Amount),
  /** The account's currency, which every amount here is in. */
  currency: Type.String(),
  /** What auto top-ups brought today (UTC), counted against the cap. */
  topped_up_today: Amount,
  last_run: Type.Union([
    Type.Object({
      status: oneOf(['PENDING', 'PLACED', 'FAILED'] as const),
      amount: Nullable(Amount),
      order_id: Nullable(Uuid),
      failure: Type.Union([oneOf(AUTO_TOP_UP_FAILURES), Type.Null()]),
      at: Type.String({ format: 'date-time' }),
    }),
    Type.Null(),
  ]),
})
export type AutoTopUp = Static<typeof AutoTopUp>
