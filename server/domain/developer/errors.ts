import { DomainError } from '../failure.ts'
import type { FieldError } from './rules.ts'

/**
 * The failures of the key-management use cases; routes.ts maps them to HTTP
 * in one switch. Another user's key is API_KEY_NOT_FOUND, like a missing one.
 */
export type DeveloperFailure =
  | { kind: 'API_KEY_NOT_FOUND' }
  | { kind: 'API_KEY_LIMIT'; limit: number }
  | { kind: 'ALLOWED_IPS_INVALID'; errors: FieldError[] }

export class DeveloperError extends DomainError<DeveloperFailure> {}
