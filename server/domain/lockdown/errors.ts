import { DomainError } from '../failure.ts'

/** The failures of the lockdown use cases; routes.ts maps each to HTTP. */
export type LockdownFailure =
  /** Lifting what is not on (409). */
  | { kind: 'LOCKDOWN_NOT_ACTIVE' }
  /** Lifting before LOCKDOWN_MIN_SECONDS have passed (409, with when it may be). */
  | { kind: 'LOCKDOWN_TOO_EARLY'; liftAfter: Date }
  /**
   * A one-tap token that is not ours, was altered, has expired, was used, or
   * came from another chat than its person's (422): it locks nobody.
   */
  | { kind: 'LOCKDOWN_LINK_INVALID'; why: 'INVALID' | 'EXPIRED' | 'USED' | 'WRONG_CHAT' }

export class LockdownError extends DomainError<LockdownFailure> {}
