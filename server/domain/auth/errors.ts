/** The failures the auth use cases return; routes.ts maps each to its HTTP answer. */
export type AuthFailure =
  | { kind: 'EMAIL_TAKEN' }
  | { kind: 'INVALID_CREDENTIALS' }
  | { kind: 'INVALID_REFRESH_TOKEN' }
  | { kind: 'REFRESH_TOKEN_REUSED' }

export class AuthError extends Error {
  constructor(readonly failure: AuthFailure) {
    super(failure.kind)
    this.name = 'AuthError'
  }
}
