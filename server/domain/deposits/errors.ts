import { DomainError } from '../failure.ts'
/** The failures of the sandbox deposit; routes.ts maps them to HTTP in one switch. */
export type DepositFailure =
  /** A field of the request that cannot be honoured: 422 naming it. */
  | {
      kind: /** Not a wallet of the tenant the request names (or none). */
        | 'WALLET_NOT_FOUND'
        | 'CURRENCY_NOT_ON_CHAIN'
        /** The wallet has no address on the chain to receive at. */
        | 'NO_DEPOSIT_ADDRESS'
        /** An address that is not one of the wallet's on the chain. */
        | 'UNKNOWN_ADDRESS'
        | 'INVALID_TX_HASH'
        | 'INVALID_AMOUNT'
      field: 'wallet_uuid' | 'chain' | 'currency' | 'amount' | 'address' | 'tx_hash'
      message: string
    }
  /** The hash (or idempotency key) was used for a different deposit. */
  | { kind: 'IDEMPOTENCY_CONFLICT' }

export class DepositError extends DomainError<DepositFailure> {}
