import type { OrderStatus, QuoteQuery } from '../../../contract/orders.ts'
import type { Problem } from '../../../contract/problem.ts'
import { DomainError } from '../failure.ts'

/**
 * What placing, cancelling and the sandbox bank's transfers answer besides an
 * order. routes.ts and sandbox-routes.ts map them to problems in one switch.
 */
export type OrderFailure =
  /** No quote with that id for this person (another person's quote looks the same). */
  | { kind: 'QUOTE_NOT_FOUND' }
  /** The quote is for another order type than the path's. */
  | { kind: 'QUOTE_MISMATCH'; quoteType: string; pathType: string }
  | { kind: 'QUOTE_EXPIRED'; expiredAt: Date }
  /** Another order (another idempotency key) was placed with this quote. */
  | { kind: 'QUOTE_USED' }
  /** The quote's saved destination was deleted since it was priced. */
  | { kind: 'DESTINATION_GONE' }
  /**
   * The quote's saved destination (its IBAN, BIC, address, wallet or the
   * counterparty's name) was edited since it was priced: quote again.
   */
  | { kind: 'DESTINATION_CHANGED' }
  /** The key was used with another request (another quote, order type or note). */
  | { kind: 'IDEMPOTENCY_CONFLICT' }
  /** A top-up's fiat account no longer takes money (CANCELED since the quote, say). */
  | { kind: 'FIAT_ACCOUNT_UNAVAILABLE'; status: string | undefined }
  /** The wallet's available balance does not cover the total. */
  | { kind: 'INSUFFICIENT_FUNDS'; currency: string; needed: string; available: string }
  /** Not the person's order, or none with that id. */
  | { kind: 'ORDER_NOT_FOUND' }
  | { kind: 'ORDER_NOT_CANCELABLE'; status: OrderStatus }
  /** Sandbox bank: no deposit order awaits a transfer with this reference. */
  | { kind: 'REFERENCE_UNKNOWN' }
  /** Sandbox bank: the transfer is not what the instructions asked for. */
  | { kind: 'AMOUNT_MISMATCH'; field: 'amount' | 'currency'; expected: string }
  /** Sandbox bank: this order's transfer arrived already. */
  | { kind: 'TRANSFER_ALREADY_RECEIVED' }
  /** Sandbox bank: the deposit order is not awaiting a transfer (cancelled). */
  | { kind: 'ORDER_NOT_AWAITING_TRANSFER'; status: OrderStatus }

export class OrderError extends DomainError<OrderFailure> {}

/** A query parameter of `GET /orders/calc` a rejection names. */
export type QuoteField = keyof QuoteQuery

/** A bound on the amount paid: a decimal string in the from currency. */
export type AmountLimit = NonNullable<Problem['limit']>

/** What pricing (quotes.ts) answers besides a quote; quote-routes.ts maps them in one switch. */
export type QuoteFailure =
  /** The quote cannot be given as asked: 422 naming `field`. */
  | {
      kind: /** A parameter missing, extra, or malformed for the order type. */
        | 'VALIDATION_FAILED'
        | 'CURRENCY_NOT_FOUND'
        | 'CURRENCY_NOT_ALLOWED'
        | 'DIRECTION_NOT_OFFERED'
        | 'DESTINATION_TYPE_MISMATCH'
        | 'CHAIN_MISMATCH'
        | 'ADDRESS_INVALID'
        | 'TARGET_IS_SOURCE'
        | 'FIAT_ACCOUNT_TYPE_MISMATCH'
        | 'FIAT_ACCOUNT_NOT_ACTIVE'
        | 'AMOUNT_TOO_SMALL'
        | 'AMOUNT_TOO_LARGE'
      field: QuoteField
      message: string
      /** What errors[].message says of the field; the whole message by default. */
      reason?: string
      /** AMOUNT_TOO_SMALL / AMOUNT_TOO_LARGE: the bound crossed, in the currency paid. */
      limit?: AmountLimit
    }
  /** A destination or fiat account that is not the caller's, or does not exist: 404. */
  | { kind: 'DESTINATION_NOT_FOUND' | 'FIAT_ACCOUNT_NOT_FOUND' }

export class QuoteError extends DomainError<QuoteFailure> {}

/** The quote cannot be given as asked (see QuoteFailure). */
export const quoteRejected = (
  kind: Extract<QuoteFailure, { field: QuoteField }>['kind'],
  field: QuoteField,
  message: string,
  options: { reason?: string; limit?: AmountLimit } = {},
) => new QuoteError({ kind, field, message, ...options })
