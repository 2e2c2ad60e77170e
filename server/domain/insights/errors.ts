import { DomainError } from '../failure.ts'

/** The failures of insights; routes.ts maps them to HTTP in one switch. */
export type InsightFailure =
  /** Another person's wallet, or none: the two look the same (404). */
  | { kind: 'WALLET_NOT_FOUND' }
  /** A period or zone that cannot be read; `field` is the query's pointer. */
  | { kind: 'INVALID_PERIOD'; field: string; message: string }
  /** Amounts needed today's rates and the provider gave none. */
  | { kind: 'RATES_UNAVAILABLE' }

export class InsightError extends DomainError<InsightFailure> {}
