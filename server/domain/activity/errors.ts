import { DomainError } from '../failure.ts'

/** The failures of the activity feed; routes.ts maps them to HTTP in one switch. */
export type ActivityFailure =
  /**
   * What the feed names is not the caller's, or does not exist: the two look
   * the same (404).
   */
  | {
      kind: 'ACTIVITY_NOT_FOUND' | 'WALLET_NOT_FOUND' | 'CARD_NOT_FOUND' | 'FIAT_ACCOUNT_NOT_FOUND'
    }
  /** A `cursor` this API did not answer as `next_cursor`. */
  | { kind: 'INVALID_CURSOR' }
  /** A range that holds nothing: `from` after `to`, or `min` above `max`. */
  | { kind: 'EMPTY_RANGE'; field: 'from' | 'min'; other: 'to' | 'max' }

export class ActivityError extends DomainError<ActivityFailure> {}

/**
 * What a replica may not hold yet (an item, wallet, card or account made a moment ago):
 * a lag-tolerant read asks the primary again. A bad cursor or range is the caller's.
 */
export const isActivityReplicaMiss = (error: unknown) =>
  error instanceof ActivityError &&
  error.failure.kind !== 'INVALID_CURSOR' &&
  error.failure.kind !== 'EMPTY_RANGE'
