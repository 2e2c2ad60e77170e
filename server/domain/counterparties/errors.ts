import { DomainError } from '../failure.ts'
import type { FieldError } from './rules.ts'

/**
 * The failures of the counterparty use cases; routes.ts maps them to HTTP in
 * one switch. A wallet that is not the caller's fails with the wallet's own
 * WALLET_NOT_FOUND (wallets/errors.ts), so it answers exactly as GET
 * /wallets/{id} does.
 */
export type CounterpartyFailure =
  /** No such counterparty in the wallet (or the wallet is not the caller's). */
  | { kind: 'COUNTERPARTY_NOT_FOUND' }
  /** No such live destination of the counterparty (a deleted one included). */
  | { kind: 'DESTINATION_NOT_FOUND' }
  /** A counterparty broke the rules of rules.ts; `errors` names every bad field. */
  | { kind: 'COUNTERPARTY_INVALID'; errors: FieldError[] }
  /** A destination broke its rail's rules; `errors` names every bad field. */
  | { kind: 'DESTINATION_INVALID'; errors: FieldError[] }
  /**
   * An order that is not final yet (NEW or PENDING) pays this destination: it
   * cannot be deleted, nor its payout fields changed, until the order ends.
   */
  | { kind: 'DESTINATION_IN_USE' }

export class CounterpartyError extends DomainError<CounterpartyFailure> {}
