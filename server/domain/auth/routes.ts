import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import type { FastifyInstance } from 'fastify'
import { EmailPasswordBody, RefreshBody, SignInBody, TokenPair } from '../../../contract/auth.ts'
import { Problem } from '../../../contract/problem.ts'
import { TelegramSignInBody, TelegramSignUpBody } from '../../../contract/telegram.ts'
import { assertNever, ProblemError, translateErrors } from '../../infra/problem.ts'
import { requestContext } from '../request-context.ts'
import { userBlocked } from './authenticate.ts'
import { AuthError, type AuthFailure } from './errors.ts'

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
    case 'PASSWORD_TOO_WEAK':
      return new ProblemError(422, failure.kind, `The password ${failure.reason}.`, {
        errors: [{ field: `/body/${failure.field}`, message: failure.reason }],
      })
    case 'CURRENT_PASSWORD_REQUIRED':
      return new ProblemError(
        422,
        'VALIDATION_FAILED',
        'current_password is required: this account has a password.',
        { errors: [{ field: '/body/current_password', message: 'is required' }] },
      )
    // 400, not 401: a 401 means "your session failed" to the app's auth proxy.
    case 'CURRENT_PASSWORD_INVALID':
      return new ProblemError(400, failure.kind, 'The current password is wrong.', {
        errors: [{ field: '/body/current_password', message: 'is not your password' }],
      })
    case 'PASSWORD_UNCHANGED':
      return new ProblemError(
        422,
        failure.kind,
        'The new password is the current one. Choose another.',
        { errors: [{ field: '/body/new_password', message: 'is your current password' }] },
      )
    case 'USER_BLOCKED':
      return userBlocked()
    case 'USER_NOT_FOUND':
      return new ProblemError(
        404,
        failure.kind,
        'No account signs in with this Telegram user. Sign up first.',
      )
    case 'TELEGRAM_NOT_CONFIGURED':
      return new ProblemError(503, failure.kind, 'Telegram sign-in is not set up on this server.')
    // 401 on purpose (unlike INVALID_CREDENTIALS): in the Mini App, init data
    // that does not check out cannot be fixed by the person, and docs/product.md §4
    // has the app sign out when Telegram sign-in fails.
    case 'TELEGRAM_INIT_DATA_INVALID':
      return new ProblemError(401, failure.kind, TELEGRAM_INVALID[failure.reason])
    case 'TELEGRAM_INIT_DATA_USED':
      return new ProblemError(
        401,
        failure.kind,
        'This Telegram launch data was used to sign in already. Reopen the Mini App.',
      )
    case 'TELEGRAM_USER_EXISTS':
      return new ProblemError(
        409,
        failure.kind,
        'This Telegram user already has an account. Sign in instead.',
      )
    default:
      return assertNever(failure)
  }
}

const TELEGRAM_INVALID = {
  malformed: 'The Telegram init data is malformed.',
  signature: 'The Telegram init data is not signed by this bot.',
  stale: 'The Telegram init data is too old. Reopen the Mini App.',
  no_user: 'The Telegram init data names no user.',
} as const

/** Turns the AuthErrors a use case documents into problems; for every route that calls one. */
export const translateAuthError = (error: unknown) =>
  error instanceof AuthError ? toProblem(error.failure) : undefined
const translate = translateAuthError

const problems = {
  400: Problem,
  401: Problem,
  409: Problem,
  422: Problem,
  423: Problem,
  429: Problem,
}
const telegramProblems = { ...problems, 404: Problem, 503: Problem }

export default async function authRoutes(app: FastifyInstance) {
  const { auth: service, telegramAuth: telegram } = app.services
  const api = app.withTypeProvider<TypeBoxTypeProvider>()

  const context = requestContext

  api.post(
    '/auth/sign-up/password/email',
    {
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
    '/auth/sign-in/telegram',
    {
      schema: {
        tags: ['auth'],
        summary: 'Sign in with the init data of the Telegram Mini App',
        description:
          'An unknown Telegram user answers 404 USER_NOT_FOUND: offer sign-up. Init data that ' +
          'does not check out (tampered, another bot, older than TELEGRAM_AUTH_MAX_AGE) answers ' +
          '401 TELEGRAM_INIT_DATA_INVALID; init data that opened a session already, 401 ' +
          'TELEGRAM_INIT_DATA_USED.',
        body: TelegramSignInBody,
        response: { 200: TokenPair, ...telegramProblems },
      },
    },
    (request) =>
      translateErrors(telegram.signIn(context(request), request.body.init_data), translate),
  )

  api.post(
    '/auth/sign-up/telegram',
    {
      schema: {
        tags: ['auth'],
        summary: 'Create an account from the Telegram launch user, and sign in',
        body: TelegramSignUpBody,
        response: { 201: TokenPair, ...telegramProblems },
      },
    },
    async (request, reply) => {
      const pair = await translateErrors(
        telegram.signUp(context(request), request.body.init_data),
        translate,
      )
      return reply.code(201).send(pair)
    },
  )

  api.post(
    '/auth/refresh/refresh-token',
    {
      schema: {
        tags: ['auth'],
        summary: 'Exchange a refresh token for a new pair (rotation, RFC 9700)',
        body: RefreshBody,
        response: { 200: TokenPair, ...problems },
      },
    },
    async (request) => {
      const { outcome, pair } = await translateErrors(
        service.refresh(request.tenantId, request.body.refresh_token),
        translate,
      )
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
