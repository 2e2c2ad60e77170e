import { DomainError } from '../failure.ts'
/** The failures the auth use cases return; routes.ts maps each to its HTTP answer. */
export type AuthFailure =
  | { kind: 'EMAIL_TAKEN' }
  | { kind: 'INVALID_CREDENTIALS' }
  | { kind: 'INVALID_REFRESH_TOKEN' }
  | { kind: 'REFRESH_TOKEN_REUSED' }
  /** A new password fails the strength rules (password-policy.ts); `reason` says which. */
  | { kind: 'PASSWORD_TOO_WEAK'; reason: string; field: 'password' | 'new_password' }
  /** A password change without the current password, on an account that has one. */
  | { kind: 'CURRENT_PASSWORD_REQUIRED' }
  /** The current password given with a change is not the account's. */
  | { kind: 'CURRENT_PASSWORD_INVALID' }
  /** The "new" password is the current one. */
  | { kind: 'PASSWORD_UNCHANGED' }
  /** The tenant blocked the account: refused after the proof of identity, never before. */
  | { kind: 'USER_BLOCKED' }
  /** No account signs in with this identity (so far: a Telegram user); the app offers sign-up. */
  | { kind: 'USER_NOT_FOUND' }
  | { kind: 'TELEGRAM_NOT_CONFIGURED' }
  | { kind: 'TELEGRAM_INIT_DATA_INVALID'; reason: 'malformed' | 'signature' | 'stale' | 'no_user' }
  | { kind: 'TELEGRAM_USER_EXISTS' }
  /** This launch data already opened a session: a replay (each launch signs in once). */
  | { kind: 'TELEGRAM_INIT_DATA_USED' }

export class AuthError extends DomainError<AuthFailure> {}
