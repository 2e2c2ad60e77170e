import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import { Type } from '@sinclair/typebox'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import { TokenPair } from '../../../contract/auth.ts'
import { OtpSent } from '../../../contract/otp.ts'
import { PageQuery } from '../../../contract/pagination.ts'
import { Problem } from '../../../contract/problem.ts'
import {
  Passkey,
  PasskeyAssertionBody,
  PasskeyList,
  PasskeySignInOptionsBody,
  RegisterPasskeyBody,
  SessionList,
  SessionsEnded,
  SignOutOthersBody,
  StepUpOtpBody,
  StepUpProof,
  StepUpStatus,
  TelegramBiometricBody,
  TelegramBiometricEnrolment,
  WebAuthnOptions,
} from '../../../contract/security.ts'
import type { Config } from '../../config.ts'
import { assertNever, ProblemError, translateErrors } from '../../infra/problem.ts'
import { translate as translateOtpError } from '../otp/http.ts'
import { requestContext } from '../request-context.ts'
import { PasskeyError, type PasskeyFailure } from './passkeys.ts'
import { translateAuthError } from './routes.ts'
import { translateStepUpError } from './security.ts'
import { SessionError, type SessionFailure } from './sessions.ts'

/** The one switch from passkey failures to HTTP answers. */
function passkeyProblem(failure: PasskeyFailure): ProblemError {
  switch (failure.kind) {
    // 400, not 401: a 401 means "your session failed" to the app's auth proxy.
    case 'PASSKEY_CHALLENGE_INVALID':
      return new ProblemError(
        400,
        failure.kind,
        'This passkey request has expired or was already used. Try again.',
      )
    case 'PASSKEY_INVALID':
      return new ProblemError(400, failure.kind, 'The passkey could not be verified.')
    case 'PASSKEY_USER_NOT_VERIFIED':
      return new ProblemError(
        400,
        failure.kind,
        'The passkey did not check it is you (no PIN, fingerprint or face). Use one that asks.',
      )
    case 'PASSKEY_EXISTS':
      return new ProblemError(409, failure.kind, 'This passkey is already registered.')
    case 'PASSKEY_NOT_FOUND':
      return new ProblemError(404, failure.kind, 'No such passkey.')
    default:
      return assertNever(failure)
  }
}

/** The one switch from session failures to HTTP answers. */
function sessionProblem(failure: SessionFailure): ProblemError {
  switch (failure.kind) {
    case 'SESSION_NOT_FOUND':
      return new ProblemError(404, failure.kind, 'No such session: it may have ended.')
    default:
      return assertNever(failure.kind)
  }
}

/** Every error of this file's use cases, whichever area it comes from. */
const translate = (error: unknown) => {
  if (error instanceof PasskeyError) return passkeyProblem(error.failure)
  if (error instanceof SessionError) return sessionProblem(error.failure)
  return translateStepUpError(error) ?? translateAuthError(error) ?? translateOtpError(error)
}

const problems = { 400: Problem, 401: Problem, 403: Problem, 404: Problem, 423: Problem }
const IdParams = Type.Object({ id: Type.String({ format: 'uuid' }) })

/** Signing in with a passkey (public, v2). */
export async function passkeySignInRoutes(app: FastifyInstance, _opts: { config: Config }) {
  const { passkeys } = app.security
  const api = app.withTypeProvider<TypeBoxTypeProvider>()

  api.post(
    '/auth/sign-in/passkey/options',
    {
      schema: {
        tags: ['auth'],
        summary: 'Options for signing in with a passkey (navigator.credentials.get)',
        description:
          'Without `email`: no credentials listed, the browser offers its discoverable ' +
          'passkeys for this site (conditional UI). The challenge is good once, for 5 minutes.',
        body: PasskeySignInOptionsBody,
        response: { 200: WebAuthnOptions, 422: Problem, 429: Problem },
      },
    },
    (request) => passkeys.signInOptions(request.tenantId, request.body.email),
  )

  api.post(
    '/auth/sign-in/passkey',
    {
      schema: {
        tags: ['auth'],
        summary: 'Sign in with a passkey assertion; the session starts stepped up',
        description:
          '400 PASSKEY_CHALLENGE_INVALID (unknown, used or expired challenge: a replay), ' +
          '400 PASSKEY_INVALID (signature, origin, RP id or counter do not check out).',
        body: PasskeyAssertionBody,
        response: { 200: TokenPair, ...problems, 422: Problem, 429: Problem },
      },
    },
    (request) =>
      translateErrors(passkeys.signIn(requestContext(request), request.body.response), translate),
  )
}

/** The signed-in person's passkeys, step-up proofs and sessions (v2, sessions only). */
export default async function securityRoutes(app: FastifyInstance) {
  const { passkeys, stepUp, sessions } = app.security
  const api = app.withTypeProvider<TypeBoxTypeProvider>()
  const me = (request: FastifyRequest) => request.auth
  const tags = ['security']

  api.get(
    '/user/passkeys',
    {
      schema: {
        tags,
        summary: 'The signed-in person’s passkeys',
        response: { 200: PasskeyList, ...problems },
      },
    },
    async (request) => ({ data: await passkeys.list(me(request)) }),
  )

  api.post(
    '/user/passkeys/options',
    {
      schema: {
        tags,
        summary: 'Options for registering a passkey (navigator.credentials.create)',
        response: { 200: WebAuthnOptions, ...problems },
      },
    },
    (request) => passkeys.registrationOptions(me(request)),
  )

  api.post(
    '/user/passkeys',
    {
      schema: {
        tags,
        summary: 'Register a passkey from the registration response',
        body: RegisterPasskeyBody,
        response: { 201: Passkey, ...problems, 409: Problem, 422: Problem },
      },
    },
    async (request, reply) =>
      reply.code(201).send(
        await translateErrors(
          passkeys.register(me(request), request.body.response, {
            name: request.body.name,
            userAgent: request.headers['user-agent'],
          }),
          translate,
        ),
      ),
  )

  api.delete(
    '/user/passkeys/:id',
    {
      schema: {
        tags,
        summary: 'Remove a passkey',
        params: IdParams,
        response: { 204: { type: 'null' }, ...problems },
      },
    },
    async (request, reply) => {
      await translateErrors(passkeys.remove(me(request), request.params.id), translate)
      return reply.code(204).send()
    },
  )

  api.get(
    '/user/step-up',
    {
      schema: {
        tags,
        summary: 'How this session can confirm it is the person, and until when it is confirmed',
        response: { 200: StepUpStatus, ...problems },
      },
    },
    (request) => translateErrors(stepUp.status(me(request)), translate),
  )

  api.post(
    '/user/step-up/otp/send',
    {
      schema: {
        tags,
        summary: 'Send a one-time code to the person’s own e-mail (else phone) for a step-up',
        response: { 200: OtpSent, ...problems, 409: Problem, 429: Problem, 502: Problem },
      },
    },
    (request) => translateErrors(stepUp.sendCode(me(request)), translate),
  )

  api.post(
    '/user/step-up/otp',
    {
      schema: {
        tags,
        summary: 'Confirm with the one-time code: the session is stepped up for 5 minutes',
        body: StepUpOtpBody,
        response: { 200: StepUpProof, ...problems, 409: Problem, 419: Problem, 422: Problem },
      },
    },
    (request) => translateErrors(stepUp.verifyCode(me(request), request.body.token), translate),
  )

  api.post(
    '/user/step-up/passkey/options',
    {
      schema: {
        tags,
        summary: 'Options for confirming with one of the person’s passkeys',
        response: { 200: WebAuthnOptions, ...problems },
      },
    },
    (request) => translateErrors(stepUp.passkeyOptions(me(request)), translate),
  )

  api.post(
    '/user/step-up/passkey',
    {
      schema: {
        tags,
        summary: 'Confirm with a passkey assertion: the session is stepped up for 5 minutes',
        body: PasskeyAssertionBody,
        response: { 200: StepUpProof, ...problems, 422: Problem },
      },
    },
    (request) =>
      translateErrors(stepUp.verifyPasskey(me(request), request.body.response), translate),
  )

  api.post(
    '/user/step-up/telegram-biometrics/enrol',
    {
      schema: {
        tags,
        summary: 'A token for the Mini App to keep behind Telegram biometrics',
        description:
          'Mini App sessions only (X-App-Env: telegram), stepped up or opened by Telegram ' +
          'sign-in in the last 5 minutes. The app stores the token with ' +
          'BiometricManager.updateBiometricToken; the server keeps only its hash.',
        response: { 200: TelegramBiometricEnrolment, ...problems },
      },
    },
    (request) => translateErrors(stepUp.enrolTelegramBiometrics(me(request)), translate),
  )

  api.post(
    '/user/step-up/telegram-biometrics',
    {
      schema: {
        tags,
        summary: 'Confirm with the token Telegram biometrics unlocked (Mini App only)',
        body: TelegramBiometricBody,
        response: { 200: StepUpProof, ...problems, 422: Problem },
      },
    },
    (request) =>
      translateErrors(stepUp.verifyTelegramBiometrics(me(request), request.body.token), translate),
  )

  api.get(
    '/user/sessions',
    {
      schema: {
        tags,
        summary: 'The person’s signed-in sessions, most recently seen first',
        description:
          '`last_seen_at` moves at each token refresh (at most one access-token lifetime old). ' +
          '`location` is the IP address: no IP-to-place database ships with the server.',
        querystring: PageQuery,
        response: { 200: SessionList, ...problems },
      },
    },
    (request) => sessions.list(me(request), request.query),
  )

  api.delete(
    '/user/sessions/:id',
    {
      schema: {
        tags,
        summary: 'Sign a session out: its refresh and access tokens stop working at once',
        params: IdParams,
        response: { 204: { type: 'null' }, ...problems },
      },
    },
    async (request, reply) => {
      await translateErrors(sessions.end(me(request), request.params.id), translate)
      return reply.code(204).send()
    },
  )

  api.post(
    '/user/sessions/sign-out-others',
    {
      schema: {
        tags,
        summary: 'Sign out every session but this one, and remove what they set up if asked',
        description:
          'With `remove_created: true`, in the same transaction: the webhook endpoints and push ' +
          'subscriptions those sessions created are deleted and their API keys disabled ' +
          '(`removed` lists them). Needs the second look.',
        body: SignOutOthersBody,
        response: { 200: SessionsEnded, ...problems, 422: Problem },
      },
    },
    (request) => sessions.endOthers(me(request), request.body?.remove_created === true),
  )
}
