import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import { EmailPasswordBody, RefreshBody, SignInBody, TokenPair } from '../../../contract/auth.ts'
import { Problem } from '../../../contract/problem.ts'
import type { Config } from '../../config.ts'
import { ProblemError, translateErrors } from '../../infra/problem.ts'
import { AuthError, type AuthFailure } from './errors.ts'
import { normaliseEmail } from './rules.ts'
import { AuthService } from './service.ts'

/** The one switch from auth failures to HTTP answers. */
function toProblem(failure: AuthFailure): ProblemError {
  switch (failure.kind) {
    case 'EMAIL_TAKEN':
      return new ProblemError(409, failure.kind, 'An account with this e-mail already exists.')
    // 400, not 401: a 401 means "your session failed" to the app's auth proxy,
    // which would refresh or sign out instead of showing the message.
    case 'INVALID_CREDENTIALS':
      return new ProblemError(400, failure.kind, 'The e-mail or password is wrong.')
    case 'INVALID_REFRESH_TOKEN':
      return new ProblemError(401, failure.kind, 'The refresh token is invalid or has expired.')
    case 'REFRESH_TOKEN_REUSED':
      return new ProblemError(
        401,
        failure.kind,
        'This refresh token was already used. The session has been ended for safety.',
      )
  }
}

const translate = (error: unknown) =>
  error instanceof AuthError ? toProblem(error.failure) : undefined

const problems = { 400: Problem, 401: Problem, 409: Problem, 422: Problem, 429: Problem }

export default async function authRoutes(app: FastifyInstance, opts: { config: Config }) {
  const { config } = opts
  const service = new AuthService(app.db, app.tokens, config)
  const api = app.withTypeProvider<TypeBoxTypeProvider>()

  const tooMany = (ttlMs: number) =>
    new ProblemError(429, 'RATE_LIMITED', 'Too many attempts. Wait a moment and try again.', {
      headers: { 'retry-after': String(Math.ceil(ttlMs / 1000)) },
    })
  // Two limits on every credential check: per address (one attacker, many
  // accounts) and per e-mail (many addresses, one account). One hook counts
  // both: the plugin marks a request once its first `app.rateLimit` hook ran,
  // so a second such hook on the same route would never count anything.
  const limits = [
    app.createRateLimit({
      max: config.authRateLimitPerIp,
      timeWindow: 60_000,
      keyGenerator: (request) => `ip:${request.ip}`,
    }),
    app.createRateLimit({
      max: config.authRateLimitPerEmail,
      timeWindow: 15 * 60_000,
      keyGenerator: (request) =>
        `email:${request.tenantId}:${normaliseEmail((request.body as { email: string }).email)}`,
    }),
  ]
  const credentialLimits = async (request: FastifyRequest) => {
    for (const limit of limits) {
      const verdict = await limit(request)
      if (!verdict.isAllowed && verdict.isExceeded) throw tooMany(verdict.ttl)
    }
  }
  const context = (request: FastifyRequest) => ({
    tenantId: request.tenantId,
    userAgent: request.headers['user-agent'],
  })

  api.post(
    '/auth/sign-up/password/email',
    {
      config: { public: true },
      preHandler: credentialLimits,
      schema: {
        tags: ['auth'],
        summary: 'Create an account with e-mail and password, and sign in',
        body: EmailPasswordBody,
        response: { 201: TokenPair, ...problems },
      },
    },
    async (request, reply) => {
      const pair = await translateErrors(
        service.signUpWithPassword(context(request), request.body),
        translate,
      )
      return reply.code(201).send(pair)
    },
  )

  api.post(
    '/auth/sign-in/password/email',
    {
      config: { public: true },
      preHandler: credentialLimits,
      schema: {
        tags: ['auth'],
        summary: 'Sign in with e-mail and password',
        body: SignInBody,
        response: { 200: TokenPair, ...problems },
      },
    },
    (request) =>
      translateErrors(service.signInWithPassword(context(request), request.body), translate),
  )

  api.post(
    '/auth/refresh/refresh-token',
    {
      config: { public: true },
      schema: {
        tags: ['auth'],
        summary: 'Exchange a refresh token for a new pair (rotation, RFC 9700)',
        body: RefreshBody,
        response: { 200: TokenPair, ...problems },
      },
    },
    async (request) => {
      const { outcome, pair } = await service.refresh(request.tenantId, request.body.refresh_token)
      app.metrics.tokenRefresh.inc({ outcome })
      if (pair) return pair
      throw toProblem({
        kind: outcome === 'reuse_revoked' ? 'REFRESH_TOKEN_REUSED' : 'INVALID_REFRESH_TOKEN',
      })
    },
  )

  api.post(
    '/auth/sign-out',
    {
      config: { public: true },
      schema: {
        tags: ['auth'],
        summary: 'End the session a refresh token belongs to',
        body: RefreshBody,
        response: { 204: { type: 'null' }, ...problems },
      },
    },
    async (request, reply) => {
      await service.signOut(request.tenantId, request.body.refresh_token)
      return reply.code(204).send()
    },
  )
}
