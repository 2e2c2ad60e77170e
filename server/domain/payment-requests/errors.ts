import { DomainError } from '../failure.ts'

/**
 * The failures of payment requests; routes.ts maps them to HTTP in one
 * switch. Paying one is a transfer: its failures are the transfer's
 * (transfers/errors.ts).
 */
export type PaymentRequestFailure =
  /** No such request in the tenant (or, to cancel it, not the caller's). */
  | { kind: 'PAYMENT_REQUEST_NOT_FOUND' }
  /** Someone paid it already: the second payer of a race gets this, and nothing moved. */
  | { kind: 'REQUEST_ALREADY_PAID' }
  /** Cancelled by its requester, or past its expiry. */
  | { kind: 'REQUEST_NOT_PAYABLE'; status: 'CANCELED' | 'EXPIRED' }
  /** A field the schema cannot judge (an expiry in the past, an amount of too many places). */
  | { kind: 'PAYMENT_REQUEST_INVALID'; field: string; message: string }

export class PaymentRequestError extends DomainError<PaymentRequestFailure> {}
