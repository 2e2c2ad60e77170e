import type { FastifyInstance, FastifyRequest } from 'fastify'
import fp from 'fastify-plugin'
import type { Config } from '../config.ts'
import { sessionState } from '../domain/auth/repository.ts'
import { type AccessClaims, Tokens } from '../domain/auth/tokens.ts'
import { ProblemError } from './problem.ts'

/** v2 sends `Authorization: Bearer <token>`, v1 the raw token (SPEC.md §6). */
export type AuthScheme = 'bearer' | 'raw'

declare module 'fastify' {
  interface FastifyInstance {
    tokens: Tokens
    /** onRequest hook for an API scope; routes with `config: { public: true }` pass through. */
    authenticate: (scheme: AuthScheme) => (request: FastifyRequest) => Promise<void>
  }
  interface FastifyRequest {
    /** Set on every protected route once the access token checked out. */
    auth: AccessClaims
  }
  interface FastifyContextConfig {
    public?: boolean
  }
}

const unauthorized = (detail: string) =>
  new ProblemError(401, 'UNAUTHORIZED', detail, { headers: { 'www-authenticate': 'Bearer' } })

/**
 * The answer for an account the tenant blocked (SPEC.md §8: 423), on every
 * protected call and at every sign-in that proved who the person is.
 */
export const userBlocked = () =>
  new ProblemError(423, 'USER_BLOCKED', 'This account has been blocked. Contact support.')

function tokenFrom(header: string | undefined, scheme: AuthScheme): string | undefined {
  if (!header) return undefined
  if (scheme === 'raw') return /^bearer /i.test(header) ? undefined : header.trim() || undefined
  const match = /^Bearer ([^\s]+)$/i.exec(header)
  return match?.[1]
}

export default fp(
  async function auth(app: FastifyInstance, opts: { config: Config }) {
    const tokens = new Tokens(opts.config.secrets, opts.config.accessTokenTtl)
    app.decorate('tokens', tokens)
    app.decorateRequest('auth', null as unknown as AccessClaims)

    app.decorate('authenticate', (scheme: AuthScheme) => async (request: FastifyRequest) => {
      if (request.routeOptions.config.public) return
      const token = tokenFrom(request.headers.authorization, scheme)
      if (!token) {
        throw unauthorized(
          scheme === 'bearer'
            ? 'Send the access token as "Authorization: Bearer <token>".'
            : 'Send the access token as "Authorization: <token>".',
        )
      }
      const claims = await tokens.verifyAccess(token)
      // A token is only good in the tenant it was issued for.
      if (!claims || claims.tenantId !== request.tenantId) {
        throw unauthorized('The access token is invalid or has expired.')
      }
      // Revoked sessions (sign-out, refresh-token reuse) end their access tokens at
      // once; so does blocking the account. One query answers both.
      const state = await sessionState(app.db, claims)
      if (state === 'ended') throw unauthorized('The session has ended. Sign in again.')
      if (state === 'blocked') throw userBlocked()
      request.auth = claims
    })
  },
  { name: 'auth', dependencies: ['db', 'tenancy'] },
)
