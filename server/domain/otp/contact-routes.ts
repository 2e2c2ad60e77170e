import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import {
  EmailChangeConfirm,
  EmailChangeRequest,
  OtpSent,
  PhoneChangeConfirm,
  PhoneChangeRequest,
} from '../../../contract/otp.ts'
import { Problem } from '../../../contract/problem.ts'
import { User } from '../../../contract/user.ts'
import type { Config } from '../../config.ts'
import { translateErrors } from '../../infra/problem.ts'
import { emailRecipient, phoneRecipient, translate } from './http.ts'
import type { Recipient } from './rules.ts'

const requestProblems = {
  401: Problem,
  409: Problem,
  422: Problem,
  423: Problem,
  429: Problem,
  502: Problem,
}
const confirmProblems = {
  400: Problem,
  401: Problem,
  404: Problem,
  409: Problem,
  419: Problem,
  422: Problem,
  423: Problem,
}

/**
 * Two-step change of the signed-in user's e-mail or phone: PATCH sends a code
 * to the new contact, POST with that code makes the change. Protected.
 */
export default async function contactRoutes(app: FastifyInstance, _opts: { config: Config }) {
  const service = app.services.otp
  const { users } = app.services
  const api = app.withTypeProvider<TypeBoxTypeProvider>()

  const requestChange = async (request: FastifyRequest, recipient: Recipient) =>
    translateErrors(service.requestContactChange(request.auth, recipient), translate)

  const confirmChange = async (request: FastifyRequest, recipient: Recipient, token: string) => {
    await translateErrors(service.confirmContactChange(request.auth, recipient, token), translate)
    return users.getUser(request.auth)
  }

  api.patch(
    '/user/email',
    {
      schema: {
        tags: ['user'],
        summary: 'Change the e-mail, step 1: send a code to the new address',
        body: EmailChangeRequest,
        response: { 202: OtpSent, ...requestProblems },
      },
    },
    async (request, reply) =>
      reply.code(202).send(await requestChange(request, emailRecipient(request.body.email))),
  )

  api.post(
    '/user/email',
    {
      schema: {
        tags: ['user'],
        summary: 'Change the e-mail, step 2: confirm with the code; other sessions end',
        body: EmailChangeConfirm,
        response: { 200: User, ...confirmProblems },
      },
    },
    async (request) =>
      confirmChange(request, emailRecipient(request.body.email), request.body.token),
  )

  api.patch(
    '/user/phone',
    {
      schema: {
        tags: ['user'],
        summary: 'Change the phone, step 1: send a code to the new number',
        body: PhoneChangeRequest,
        response: { 202: OtpSent, ...requestProblems },
      },
    },
    async (request, reply) =>
      reply.code(202).send(await requestChange(request, phoneRecipient(request.body.phone))),
  )

  api.post(
    '/user/phone',
    {
      schema: {
        tags: ['user'],
        summary: 'Change the phone, step 2: confirm with the code; other sessions end',
        body: PhoneChangeConfirm,
        response: { 200: User, ...confirmProblems },
      },
    },
    async (request) =>
      confirmChange(request, phoneRecipient(request.body.phone), request.body.token),
  )
}
