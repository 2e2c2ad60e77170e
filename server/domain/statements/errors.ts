import { DomainError } from '../failure.ts'

/** The failures of statements; routes.ts maps them to HTTP in one switch. */
export type StatementFailure =
  /**
   * The statement, the wallet, account or card it is asked for, or the
   * activity item a receipt is asked for, is not
   * the caller's or does not exist: the two look the same (404).
   */
  | {
      kind:
        | 'STATEMENT_NOT_FOUND'
        | 'WALLET_NOT_FOUND'
        | 'FIAT_ACCOUNT_NOT_FOUND'
        | 'CARD_NOT_FOUND'
        | 'ACTIVITY_NOT_FOUND'
    }
  /** The file is asked for before the job has rendered it (or after it failed). */
  | { kind: 'STATEMENT_NOT_READY'; status: 'queued' | 'rendering' | 'failed' }
  /** A period that cannot be drawn; `field` is the request's pointer. */
  | { kind: 'INVALID_PERIOD'; field: string; message: string }
  /** The same request_id came with another request. */
  | { kind: 'IDEMPOTENCY_CONFLICT' }

export class StatementError extends DomainError<StatementFailure> {}
