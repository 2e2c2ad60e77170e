import type { CardStatus, DeliveryStatus } from '../../../contract/cards.ts'
import type { FiatAccountStatus } from '../../../contract/fiat-accounts.ts'
import { DomainError } from '../failure.ts'

/** A field of a request body and what is wrong with it (422 `errors`). */
export interface BodyFault {
  /** JSON pointer into the request, e.g. `/body/limits/daily`. */
  field: string
  message: string
}

/** The failures the card use cases return; routes.ts maps each to its HTTP answer. */
export type CardFailure =
  /** No such card among the owner's (another user's answers the same). */
  | { kind: 'CARD_NOT_FOUND' }
  /** The card's status forbids the action (an illegal transition, a reveal of a closed card). */
  | { kind: 'CARD_STATUS_CONFLICT'; status: CardStatus }
  /** A body field names something the card cannot be issued with. */
  | {
      kind:
        | 'WALLET_NOT_FOUND'
        | 'PROGRAM_NOT_FOUND'
        | 'PROGRAM_ARCHIVED'
        | 'PROGRAM_NOT_PREPAID'
        | 'FORM_FACTOR_UNAVAILABLE'
        | 'FIAT_ACCOUNT_NOT_FOUND'
        /** PHYSICAL without a delivery address. */
        | 'DELIVERY_ADDRESS_REQUIRED'
        /** VIRTUAL with one. */
        | 'DELIVERY_ADDRESS_NOT_ALLOWED'
        /** A country the country list does not know. */
        | 'INVALID_DELIVERY_ADDRESS'
        /** The issue fee is more than the wallet (/create) or the account (/balance) holds. */
        | 'INSUFFICIENT_FUNDS'
        /** Activation: not the security code (CVV) printed on the card. */
        | 'ACTIVATION_CODE_INVALID'
      fault: BodyFault
    }
  /** Too many wrong activation codes within the hour: try again in `retryAfterSeconds`. */
  | { kind: 'ACTIVATION_RATE_LIMITED'; retryAfterSeconds: number }
  /** Activation of a physical card whose delivery has not arrived. */
  | { kind: 'CARD_NOT_DELIVERED'; delivery: DeliveryStatus | null }
  /** The fiat account cannot take a new card: not ACTIVE, or a stand-alone card's own. */
  | { kind: 'FIAT_ACCOUNT_UNAVAILABLE'; fault: BodyFault; accountStatus: FiatAccountStatus }
  | { kind: 'INVALID_LIMITS'; faults: BodyFault[] }
  /** Card controls that cannot be kept (an unknown country, two limits of one window…). */
  | { kind: 'INVALID_CONTROLS'; faults: BodyFault[] }
  /**
   * A rename's request_id was used before with another nick_name, or a card
   * creation's key with another body (`of: 'create'`).
   */
  | { kind: 'IDEMPOTENCY_CONFLICT'; of?: 'create' }
  /** The encrypted_key does not decrypt, or its content is not `{key, timestamp}`. */
  | { kind: 'SECRET_KEY_INVALID' }
  /** Its timestamp is more than 60 s from the server's clock. */
  | { kind: 'SECRET_KEY_STALE' }
  /** The server has seen this encrypted_key before. */
  | { kind: 'SECRET_KEY_REPLAYED' }

export class CardError extends DomainError<CardFailure> {}
