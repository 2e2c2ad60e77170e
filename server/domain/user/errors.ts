import { DomainError } from '../failure.ts'
import type { FieldError } from './rules.ts'

/** The failures of the profile use cases; routes.ts maps them to HTTP in one switch. */
export type UserFailure =
  /** The signed-in user's row is gone (deleted since the token was issued). */
  | { kind: 'USER_NOT_FOUND' }
  /** A profile change broke the rules of rules.ts; `errors` names every bad field. */
  | { kind: 'USER_DATA_INVALID'; errors: FieldError[] }
  /**
   * The address is in a country the tenant does not serve (and not the one
   * already saved): the same refusal as a KYC submission's (kyc/routes.ts).
   */
  | { kind: 'COUNTRY_NOT_SUPPORTED'; country: string; supported: readonly string[] }

export class UserError extends DomainError<UserFailure> {}
