import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import { Type } from '@sinclair/typebox'
import type { FastifyInstance, FastifyReply } from 'fastify'
import { oneOf } from '../../../contract/enums.ts'
import { Problem } from '../../../contract/problem.ts'
import { STATEMENT_LANGUAGES, StatementLink } from '../../../contract/statements.ts'
import { ProblemError, translateErrors } from '../../infra/problem.ts'
import { Params, problems, toProblem } from './routes.ts'

const ReceiptQuery = Type.Object({
  language: Type.Optional(oneOf(STATEMENT_LANGUAGES)),
  time_zone: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
})

const Pdf = {
  description: 'The receipt',
  content: {
    'application/pdf': { schema: Type.Unsafe<Buffer>({ type: 'string', format: 'binary' }) },
  },
}

const sendPdf = (
  reply: FastifyReply,
  receipt: { bytes: Buffer; fileName: string; language: string },
) =>
  reply
    .header('content-type', 'application/pdf')
    .header('content-language', receipt.language)
    .header('content-disposition', `attachment; filename="${receipt.fileName}"`)
    .header('cache-control', 'private, no-store')
    .send(receipt.bytes)

/** v2: an activity item's receipt, and a link to it that needs no sign-in. The owner's only. */
export default async function receiptRoutes(app: FastifyInstance) {
  const service = app.receipts
  const api = app.withTypeProvider<TypeBoxTypeProvider>()

  api.get(
    '/activity/:id/receipt',
    {
      schema: {
        tags: ['statements'],
        summary: 'A receipt of one activity item, as a PDF',
        description:
          'What it was, when, its status, every amount, whom it went to and its references, in ' +
          '`language` (the person’s when not given) with times in `time_zone` (IANA, UTC when ' +
          'not given). Another person’s item: 404 ACTIVITY_NOT_FOUND.',
        params: Params,
        querystring: ReceiptQuery,
        response: { 200: Pdf, ...problems },
      },
    },
    async (request, reply) => {
      const options = { language: request.query.language, timeZone: request.query.time_zone }
      const receipt = await translateErrors(
        service.receipt(request.auth, request.params.id, options),
        toProblem,
      )
      return sendPdf(reply, receipt)
    },
  )

  api.post(
    '/activity/:id/receipt/link',
    {
      schema: {
        tags: ['statements'],
        summary: 'A download link for an activity item’s receipt that needs no sign-in',
        description:
          'For a client that fetches the file itself, without the Authorization header — ' +
          'Telegram’s downloadFile in the Mini App. The URL works for 10 minutes; `language` ' +
          'and `time_zone` as for the receipt itself. Another person’s item: 404.',
        params: Params,
        querystring: ReceiptQuery,
        response: { 201: StatementLink, ...problems },
      },
    },
    async (request, reply) => {
      const options = { language: request.query.language, timeZone: request.query.time_zone }
      const link = await translateErrors(
        service.link(request.auth, request.params.id, options),
        toProblem,
      )
      return reply.status(201).send(link)
    },
  )
}

/** Public: a receipt by the link its owner made (limited per address like the statement checks). */
export async function receiptLinkRoutes(app: FastifyInstance) {
  const service = app.receipts
  const api = app.withTypeProvider<TypeBoxTypeProvider>()

  api.get(
    '/receipts/:token',
    {
      schema: {
        tags: ['statements'],
        summary: 'Download a receipt by the link its owner made (public)',
        description:
          'The link of `POST /api/v2/activity/{id}/receipt/link`, for 10 minutes, with the ' +
          '`language` and `time_zone` it was made with. Unknown, altered or expired: 404 ' +
          'ACTIVITY_NOT_FOUND, counted as a miss (limits as the statement checks).',
        params: Type.Object({ token: Type.String({ minLength: 1, maxLength: 100 }) }),
        querystring: ReceiptQuery,
        response: { 200: Pdf, 404: Problem, 422: Problem, 429: Problem },
      },
    },
    async (request, reply) => {
      const receipt = await translateErrors(
        service.byLink(request.params.token, {
          language: request.query.language,
          timeZone: request.query.time_zone,
        }),
        toProblem,
      )
      if (!receipt) {
        throw new ProblemError(
          404,
          'ACTIVITY_NOT_FOUND',
          'This link is unknown or has expired: make a new one.',
        )
      }
      return sendPdf(reply, receipt)
    },
  )
}
