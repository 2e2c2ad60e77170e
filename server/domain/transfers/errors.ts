import { DomainError } from '../failure.ts'

/**
 * The failures of transfers between people and of the people lookup;
 * routes.ts maps them to HTTP in one switch. A wallet that is not the
 * caller's fails with the wallet's own WALLET_NOT_FOUND (wallets/errors.ts).
 */
export type TransferFailure =
  /** A person named by id who is not in the tenant, or whom the sender may not know of. */
  | { kind: 'RECIPIENT_NOT_FOUND' }
  /** The target names the sender themselves. */
  | { kind: 'CANNOT_PAY_YOURSELF' }
  /** A field the schema cannot judge (a phone that is no phone, an amount of too many places). */
  | { kind: 'TRANSFER_INVALID'; field: string; message: string }
  /** No such currency in the catalogue. */
  | { kind: 'CURRENCY_NOT_FOUND' }
  /** The wallet's available balance does not cover the amount. */
  | { kind: 'INSUFFICIENT_FUNDS'; currency: string; available: string; needed: string }
  /** The same request_id came with another body. */
  | { kind: 'IDEMPOTENCY_CONFLICT' }
  /** No such transfer of the caller's. */
  | { kind: 'TRANSFER_NOT_FOUND' }
  /** The lookup named no contact, or more than one. */
  | { kind: 'LOOKUP_INVALID' }

export class TransferError extends DomainError<TransferFailure> {}
