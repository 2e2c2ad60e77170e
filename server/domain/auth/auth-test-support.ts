/** The sign-up and sign-out calls the password-session tests share, answers unchecked. */
import type { FastifyInstance } from 'fastify'
import { DEFAULT_PASSWORD, headers } from '../../test-support.ts'

export function signOut(app: FastifyInstance, refreshToken: string) {
  return app.inject({
    method: 'POST',
    url: '/api/v2/auth/sign-out',
    headers: headers(),
    payload: { refresh_token: refreshToken },
  })
}

export function signUpRequest(app: FastifyInstance, email: string, password = DEFAULT_PASSWORD) {
  return app.inject({
    method: 'POST',
    url: '/api/v2/auth/sign-up/password/email',
    headers: headers(),
    payload: { email, password },
  })
}
