import type { CardTransactionStatus } from '../../../contract/card-transactions.ts'
import { DomainError } from '../failure.ts'

/** The failures of the card processor and the card-transaction reads; routes map each to HTTP. */
export type CardTransactionFailure =
  /** A path or query id of another user's (or no) card / fiat account: 404. */
  | { kind: 'CARD_NOT_FOUND' }
  | { kind: 'FIAT_ACCOUNT_NOT_FOUND' }
  /** A processor message the sandbox cannot take as sent: 422 naming the field. */
  | {
      kind:
        | 'UNKNOWN_CARD'
        | 'CURRENCY_MISMATCH'
        | 'INVALID_AMOUNT'
        | 'MERCHANT_REQUIRED'
        | 'AUTHORIZATION_REQUIRED'
        | 'AUTHORIZATION_NOT_FOUND'
        | 'AMOUNT_EXCEEDS_AUTHORIZATION'
        | 'AMOUNT_NOT_AUTHORIZED'
        | 'AMOUNT_EXCEEDS_REFUNDABLE'
        /** A 3-D Secure code on a message that is not an AUTHORIZATION. */
        | 'THREE_DS_NOT_APPLICABLE'
        /** A `channel` on a message that is not an AUTHORIZATION. */
        | 'CHANNEL_NOT_APPLICABLE'
      field: string
      message: string
    }
  /** The message's network_message_id was used for another message of the card (409). */
  | { kind: 'IDEMPOTENCY_CONFLICT' }
  /** The authorisation is not in the state the message needs (409 with its status). */
  | {
      kind: 'AUTHORIZATION_NOT_OPEN' | 'AUTHORIZATION_NOT_SETTLED'
      status: CardTransactionStatus
    }

export class CardTransactionError extends DomainError<CardTransactionFailure> {}

/** A card or account the replica does not hold yet (issued a moment ago): the primary is asked. */
export const isCardTransactionReplicaMiss = (error: unknown) =>
  error instanceof CardTransactionError &&
  (error.failure.kind === 'CARD_NOT_FOUND' || error.failure.kind === 'FIAT_ACCOUNT_NOT_FOUND')
