import { DomainError } from '../failure.ts'
import { WalletError } from '../wallets/errors.ts'

/**
 * The failures of the history reads; routes.ts maps them to HTTP in one
 * switch. A wallet that is not the caller's fails with the wallet's own
 * WALLET_NOT_FOUND (wallets/errors.ts).
 */
export type TransactionFailure =
  /** No such record in the wallet. */
  | { kind: 'TRANSACTION_NOT_FOUND' }
  /** `from` is after `to` (an empty range, `from == to`, is fine). */
  | { kind: 'INVALID_DATE_RANGE' }

export class TransactionError extends DomainError<TransactionFailure> {}

/** A wallet or record the replica does not hold yet (made a moment ago): the primary is asked. */
export const isTransactionReplicaMiss = (error: unknown) =>
  (error instanceof WalletError && error.failure.kind === 'WALLET_NOT_FOUND') ||
  (error instanceof TransactionError && error.failure.kind === 'TRANSACTION_NOT_FOUND')
