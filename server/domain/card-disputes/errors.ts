import type { DisputeStatus } from '../../../contract/card-disputes.ts'
import type { CardTransactionStatus } from '../../../contract/card-transactions.ts'
import { DomainError } from '../failure.ts'

/** The failures of disputes; routes.ts maps each to HTTP. */
export type DisputeFailure =
  /** Not the person's card payment (or no such one): 404. */
  | { kind: 'TRANSACTION_NOT_FOUND' }
  | { kind: 'DISPUTE_NOT_FOUND' }
  /** Only a settled payment can be disputed (409, with its status). */
  | { kind: 'AUTHORIZATION_NOT_SETTLED'; status: CardTransactionStatus }
  /** The payment was disputed already, with another claim (409). */
  | { kind: 'DISPUTE_EXISTS' }
  /** The card's own account was closed with it: no credit could land (409). */
  | { kind: 'FIAT_ACCOUNT_CLOSED' }
  /** More than was charged less what came back (422 naming `amount`). */
  | { kind: 'AMOUNT_EXCEEDS_DISPUTABLE'; disputable: string }
  | { kind: 'INVALID_AMOUNT'; message: string }
  /** The decision does not follow where the dispute stands (409, with it). */
  | { kind: 'DISPUTE_DECIDED'; status: DisputeStatus }
  /** A lost fraud claim whose credit was spent: nothing taken back yet (409). */
  | { kind: 'INSUFFICIENT_FUNDS' }

export class DisputeError extends DomainError<DisputeFailure> {}
