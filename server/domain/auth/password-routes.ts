import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import type { FastifyInstance } from 'fastify'
import {
  ChangePasswordBody,
  PasswordChanged,
  PasswordStatus,
  TokenPair,
} from '../../../contract/auth.ts'
import { OtpSent, PasswordResetConfirm, PasswordResetRequest } from '../../../contract/otp.ts'
import { Problem } from '../../../contract/problem.ts'
import { translateErrors } from '../../infra/problem.ts'
import { recipientOf, translate as translateOtpError } from '../otp/http.ts'
import { requestContext } from '../request-context.ts'
import { translateAuthError } from './routes.ts'

const translate = (error: unknown) => translateAuthError(error) ?? translateOtpError(error)

const tags = ['security']

/** The signed-in person's password: whether there is one, and changing (or setting) it. */
export default async function passwordRoutes(app: FastifyInstance) {
  const { passwords } = app.security
  const api = app.withTypeProvider<TypeBoxTypeProvider>()

  api.get(
    '/user/password',
    {
      schema: {
        tags,
        summary: 'Whether the account has a password, and when it last changed',
        response: { 200: PasswordStatus, 401: Problem, 403: Problem },
      },
    },
    (request) => passwords.status(request.auth),
  )

  api.post(
    '/user/password',
    {
      schema: {
        tags,
        summary: 'Change the password (or set the first one): every other session ends',
        description:
          'Needs the second look and, when the account has a password, `current_password` ' +
          '(400 CURRENT_PASSWORD_INVALID when wrong). An account without one (Telegram, passkey ' +
          'or one-time codes only) sets its first with the second look alone. The new password ' +
          'passes the sign-up rule (422 PASSWORD_TOO_WEAK) and is not the current one (422 ' +
          'PASSWORD_UNCHANGED). Writes `security.password_changed` (`via: "change"`).',
        body: ChangePasswordBody,
        response: {
          200: PasswordChanged,
          400: Problem,
          401: Problem,
          403: Problem,
          422: Problem,
          423: Problem,
          429: Problem,
        },
      },
    },
    (request) => translateErrors(passwords.change(request.auth, request.body), translate),
  )
}

/** Resetting a forgotten password with a one-time code (public, v2). */
export async function passwordResetRoutes(app: FastifyInstance) {
  const { passwords } = app.security
  const api = app.withTypeProvider<TypeBoxTypeProvider>()

  api.post(
    '/auth/password/reset',
    {
      schema: {
        tags: ['auth'],
        summary: 'Send a code to reset a forgotten password (answered the same for anyone)',
        description:
          'When an account signs in with the e-mail or phone, a one-time code (purpose ' +
          '`password_reset`) goes there in a moment; otherwise nothing does. The answer is ' +
          'the same 202 either way, and as quick: it never says whether the account exists.',
        body: PasswordResetRequest,
        response: { 202: OtpSent, 422: Problem, 429: Problem },
      },
    },
    async (request, reply) => {
      const sent = await passwords.requestReset(
        request.tenantId,
        recipientOf(request.body),
        request.body.language,
      )
      return reply.code(202).send(sent)
    },
  )

  api.post(
    '/auth/password/reset/confirm',
    {
      schema: {
        tags: ['auth'],
        summary: 'Set a new password with the reset code, and sign in',
        description:
          'Every earlier session of the account ends; the answer is a new token pair. Writes ' +
          '`security.password_changed` (`via: "reset"`). A weak password is 422 ' +
          'PASSWORD_TOO_WEAK and leaves the code usable.',
        body: PasswordResetConfirm,
        response: {
          200: TokenPair,
          400: Problem,
          419: Problem,
          422: Problem,
          423: Problem,
          429: Problem,
        },
      },
    },
    (request) =>
      translateErrors(
        passwords.confirmReset(requestContext(request), recipientOf(request.body), {
          token: request.body.token,
          newPassword: request.body.new_password,
        }),
        translate,
      ),
  )
}
