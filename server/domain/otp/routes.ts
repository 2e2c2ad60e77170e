import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import type { FastifyInstance } from 'fastify'
import { TokenPair } from '../../../contract/auth.ts'
import {
  EmailOtpRequest,
  EmailOtpVerify,
  OtpSent,
  PhoneOtpRequest,
  PhoneOtpVerify,
} from '../../../contract/otp.ts'
import { Problem } from '../../../contract/problem.ts'
import type { Config } from '../../config.ts'
import { translateErrors } from '../../infra/problem.ts'
import { requestContext } from '../request-context.ts'
import { emailRecipient, phoneRecipient, translate } from './http.ts'

const sendProblems = {
  404: Problem,
  422: Problem,
  423: Problem,
  429: Problem,
  502: Problem,
}
const verifyProblems = { 400: Problem, 419: Problem, 422: Problem, 423: Problem, 429: Problem }

/** Signing in (and up) with a one-time code by e-mail or SMS. All public. */
export default async function otpRoutes(app: FastifyInstance, _opts: { config: Config }) {
  const service = app.services.otp
  const api = app.withTypeProvider<TypeBoxTypeProvider>()

  api.post(
    '/auth/sign-in/omni/email/otp',
    {
      schema: {
        tags: ['auth'],
        summary: 'Send a one-time sign-in code by e-mail (the first code creates the account)',
        body: EmailOtpRequest,
        response: { 200: OtpSent, ...sendProblems },
      },
    },
    async (request) =>
      translateErrors(
        service.sendSignInCode(requestContext(request), emailRecipient(request.body.email), {
          createUser: request.body.create_user ?? true,
          language: request.body.language,
        }),
        translate,
      ),
  )

  api.post(
    '/auth/sign-in/omni/phone/otp',
    {
      schema: {
        tags: ['auth'],
        summary: 'Send a one-time sign-in code by SMS (the first code creates the account)',
        body: PhoneOtpRequest,
        response: { 200: OtpSent, ...sendProblems },
      },
    },
    async (request) =>
      translateErrors(
        service.sendSignInCode(requestContext(request), phoneRecipient(request.body.phone), {
          createUser: request.body.create_user ?? true,
          language: request.body.language,
        }),
        translate,
      ),
  )

  api.post(
    '/auth/verify/email/otp',
    {
      schema: {
        tags: ['auth'],
        summary: 'Exchange an e-mail code for a token pair',
        body: EmailOtpVerify,
        response: { 200: TokenPair, ...verifyProblems },
      },
    },
    async (request) =>
      translateErrors(
        service.verifySignIn(
          requestContext(request),
          emailRecipient(request.body.email),
          request.body.token,
        ),
        translate,
      ),
  )

  api.post(
    '/auth/verify/phone/otp',
    {
      schema: {
        tags: ['auth'],
        summary: 'Exchange an SMS code for a token pair',
        body: PhoneOtpVerify,
        response: { 200: TokenPair, ...verifyProblems },
      },
    },
    async (request) =>
      translateErrors(
        service.verifySignIn(
          requestContext(request),
          phoneRecipient(request.body.phone),
          request.body.token,
        ),
        translate,
      ),
  )
}
