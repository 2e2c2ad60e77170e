import type { FieldError } from './rules.ts'

/**
 * The failures of the counterparty use cases; routes.ts maps them to HTTP in
 * one switch. A wallet that is not the caller's is wallets' own
 * WalletNotFoundError, so it answers exactly as GET /wallets/{id} does.
 */

/** No such counterparty in the wallet (or the wallet is not the caller's). */
export class CounterpartyNotFoundError extends Error {
  constructor() {
    super('COUNTERPARTY_NOT_FOUND')
    this.name = 'CounterpartyNotFoundError'
  }
}

/** No such live destination of the counterparty (a deleted one included). */
export class DestinationNotFoundError extends Error {
  constructor() {
    super('DESTINATION_NOT_FOUND')
    this.name = 'DestinationNotFoundError'
  }
}

/** A counterparty broke the rules of rules.ts; `errors` names every bad field. */
export class CounterpartyInvalidError extends Error {
  constructor(readonly errors: FieldError[]) {
    super('VALIDATION_FAILED')
    this.name = 'CounterpartyInvalidError'
  }
}

/** A destination broke its rail's rules; `errors` names every bad field. */
export class DestinationInvalidError extends Error {
  constructor(readonly errors: FieldError[]) {
    super('DESTINATION_INVALID')
    this.name = 'DestinationInvalidError'
  }
}

/**
 * An order that is not final yet (NEW or PENDING) pays this destination: it
 * cannot be deleted, nor its payout fields changed, until the order ends.
 */
export class DestinationInUseError extends Error {
  constructor() {
    super('DESTINATION_IN_USE')
    this.name = 'DestinationInUseError'
  }
}
