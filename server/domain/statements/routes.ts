import { createHash } from 'node:crypto'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import { Type } from '@sinclair/typebox'
import type { FastifyInstance } from 'fastify'
import { Problem } from '../../../contract/problem.ts'
import {
  CreateStatementBody,
  Statement,
  StatementLink,
  StatementVerification,
  VerifyStatementHash,
} from '../../../contract/statements.ts'
import { assertNever, ProblemError, translateErrors } from '../../infra/problem.ts'
import { idempotencyKey } from '../idempotency.ts'
import { StatementError } from './errors.ts'
import { normaliseCode } from './rules.ts'

/** The one switch from statement (and receipt) failures to HTTP answers. */
export const toProblem = (error: unknown) => {
  if (!(error instanceof StatementError)) return undefined
  const failure = error.failure
  switch (failure.kind) {
    // Another person's statement, wallet, account or card answers like one that does not exist.
    case 'STATEMENT_NOT_FOUND':
      return new ProblemError(404, failure.kind, 'No such statement.')
    case 'WALLET_NOT_FOUND':
      return new ProblemError(404, failure.kind, 'No such wallet.')
    case 'FIAT_ACCOUNT_NOT_FOUND':
      return new ProblemError(404, failure.kind, 'No such fiat account.')
    case 'CARD_NOT_FOUND':
      return new ProblemError(404, failure.kind, 'No such card.')
    case 'ACTIVITY_NOT_FOUND':
      return new ProblemError(404, failure.kind, 'No such activity.')
    case 'STATEMENT_NOT_READY':
      return new ProblemError(
        409,
        failure.kind,
        failure.status === 'failed'
          ? 'The statement could not be made: ask for it again.'
          : `The statement is ${failure.status}: its file is there once its status is ready.`,
        { extensions: { statement_status: failure.status } },
      )
    case 'INVALID_PERIOD':
      return new ProblemError(422, 'VALIDATION_FAILED', `${failure.field} ${failure.message}`, {
        title: 'Unprocessable Content',
        errors: [{ field: failure.field, message: failure.message }],
      })
    case 'IDEMPOTENCY_CONFLICT':
      return new ProblemError(
        409,
        failure.kind,
        'This request_id was used for another statement: send a new one.',
      )
    default:
      return assertNever(failure)
  }
}

export const problems = { 401: Problem, 404: Problem, 409: Problem, 422: Problem, 423: Problem }
export const Params = Type.Object({ id: Type.String({ format: 'uuid' }) })

/** v2: asking for a statement, following it, downloading it. Protected; the owner's only. */
export default async function statementRoutes(app: FastifyInstance) {
  const service = app.statements
  const api = app.withTypeProvider<TypeBoxTypeProvider>()

  api.post(
    '/statements',
    {
      schema: {
        tags: ['statements'],
        summary: 'Ask for a statement of a wallet, a fiat account or a card',
        description:
          'Answers 202 with the statement `queued`; a job renders it (`GET /statements/{id}`: ' +
          '`status`, `progress`), then `GET /statements/{id}/file` downloads it. Balances and ' +
          'movements come from the ledger; `from` inclusive, `to` exclusive, at most 366 days, ' +
          'not beyond tomorrow (422 naming the field). Another person’s wallet, account or card: ' +
          '404. `request_id` or `Idempotency-Key`: the same key and body answer the first ' +
          'statement; another body, 409 IDEMPOTENCY_CONFLICT.',
        body: CreateStatementBody,
        response: { 202: Statement, ...problems },
      },
    },
    async (request, reply) => {
      const key = idempotencyKey({
        requestId: request.body.request_id,
        header: request.headers['idempotency-key'] as string | undefined,
      })
      const statement = await translateErrors(
        service.request(request.auth, request.body, key),
        toProblem,
      )
      return reply.status(202).send(statement)
    },
  )

  api.get(
    '/statements/:id',
    {
      schema: {
        tags: ['statements'],
        summary: 'A statement: its status, progress, code and, once ready, its hash',
        params: Params,
        response: { 200: Statement, ...problems },
      },
    },
    (request) => translateErrors(service.get(request.auth, request.params.id), toProblem),
  )

  api.get(
    '/statements/:id/file',
    {
      schema: {
        tags: ['statements'],
        summary: 'Download a ready statement',
        description:
          'The file as rendered (`application/pdf`, `text/csv` or `application/json`), its ' +
          'SHA-256 in `X-Content-SHA256`, its language in `Content-Language`. Before it is ' +
          'ready: 409 STATEMENT_NOT_READY.',
        params: Params,
        response: {
          200: {
            description: 'The statement file',
            content: {
              'application/pdf': {
                schema: Type.Unsafe<Buffer>({ type: 'string', format: 'binary' }),
              },
              'text/csv': { schema: Type.Unsafe<Buffer>({ type: 'string' }) },
              'application/json': { schema: Type.Unsafe<Buffer>({ type: 'string' }) },
            },
          },
          ...problems,
        },
      },
    },
    async (request, reply) => {
      const file = await translateErrors(service.file(request.auth, request.params.id), toProblem)
      return reply
        .header('content-type', file.contentType)
        .header('content-language', file.language)
        .header('content-disposition', `attachment; filename="${file.fileName}"`)
        .header('x-content-sha256', file.sha256)
        .header('cache-control', 'private, no-store')
        .send(file.bytes)
    },
  )

  api.post(
    '/statements/:id/link',
    {
      schema: {
        tags: ['statements'],
        summary: 'A download link for a ready statement that needs no sign-in',
        description:
          'For a client that fetches the file itself, without the Authorization header — ' +
          'Telegram’s downloadFile in the Mini App. The URL works for 10 minutes; a new link ' +
          'replaces the last. Before the file is ready: 409 STATEMENT_NOT_READY.',
        params: Params,
        response: { 201: StatementLink, ...problems },
      },
    },
    async (request, reply) =>
      reply
        .status(201)
        .send(await translateErrors(service.link(request.auth, request.params.id), toProblem)),
  )
}

/** Calls per minute one address may make to the verify routes. */
export const VERIFY_CALLS = { max: 20, windowMs: 60_000 }
/** Codes, files or hashes that match nothing, per hour and address: guessing stops here. */
export const VERIFY_MISSES = { max: 20, windowMs: 60 * 60_000 }
/** The largest file checked by upload; a bigger one is checked by its hash. */
const VERIFY_BODY_LIMIT = 10 * 1024 * 1024

const FILE_TYPES = ['application/pdf', 'text/csv', 'application/octet-stream']

/**
 * Public, under /api (no tenant, no sign-in): anyone holding a statement's
 * code, its file or its hash learns whether it is genuine — the holder's
 * initials, the account's last four, the period and the hash, nothing more.
 * Limited per address (route-policy.ts): calls per minute, and misses per
 * hour, a miss reserved before the lookup so a guesser past the limit learns
 * nothing even from a hit.
 */
export async function statementVerifyRoutes(app: FastifyInstance) {
  const service = app.statements
  const api = app.withTypeProvider<TypeBoxTypeProvider>()
  app.addContentTypeParser(
    FILE_TYPES,
    { parseAs: 'buffer', bodyLimit: VERIFY_BODY_LIMIT },
    (_, body, done) => done(null, body),
  )
  const answer = async (by: { code: string } | { sha256: string }) => {
    const found = await service.verify(by)
    if (found) return found
    throw new ProblemError(
      404,
      'STATEMENT_NOT_FOUND',
      'No statement has this code or file: check it was typed or uploaded whole.',
    )
  }
  const responses = {
    200: StatementVerification,
    404: Problem,
    413: Problem,
    415: Problem,
    422: Problem,
    429: Problem,
  }

  api.get(
    '/statements/verify/:code',
    {
      schema: {
        tags: ['statements'],
        summary: 'Check a statement by the code printed on it (public)',
        description:
          'Answers the holder’s initials, the account’s last four, the period and the file’s ' +
          'SHA-256 — compare it with the file’s. Case, dashes and spaces do not matter. ' +
          'Unknown code: 404 STATEMENT_NOT_FOUND. 20 checks a minute per address, and 20 that ' +
          'match nothing an hour: then 429 RATE_LIMITED with Retry-After.',
        params: Type.Object({ code: Type.String({ minLength: 1, maxLength: 40 }) }),
        response: responses,
      },
    },
    (request) => {
      const code = normaliseCode(request.params.code)
      return answer({ code: code ?? '-' })
    },
  )

  api.get(
    '/statements/files/:token',
    {
      schema: {
        tags: ['statements'],
        summary: 'Download a statement by the link its owner made (public)',
        description:
          'The link of `POST /api/v2/statements/{id}/link`, for 10 minutes. Unknown or ' +
          'expired: 404 STATEMENT_NOT_FOUND, counted as a miss (limits as the checks).',
        params: Type.Object({ token: Type.String({ minLength: 1, maxLength: 100 }) }),
        response: {
          200: {
            description: 'The statement file',
            content: {
              'application/pdf': {
                schema: Type.Unsafe<Buffer>({ type: 'string', format: 'binary' }),
              },
            },
          },
          404: Problem,
          429: Problem,
        },
      },
    },
    async (request, reply) => {
      const file = await service.fileByLink(request.params.token)
      if (!file) {
        throw new ProblemError(
          404,
          'STATEMENT_NOT_FOUND',
          'This link is unknown or has expired: make a new one.',
        )
      }
      return reply
        .header('content-type', file.contentType)
        .header('content-language', file.language)
        .header('content-disposition', `attachment; filename="${file.fileName}"`)
        .header('x-content-sha256', file.sha256)
        .header('cache-control', 'private, no-store')
        .send(file.bytes)
    },
  )

  api.post(
    '/statements/verify',
    {
      schema: {
        tags: ['statements'],
        summary: 'Check a statement by its SHA-256 (public)',
        description:
          '`{"sha256": "<hex>"}`: answers as the check by code. A hash of no statement (a ' +
          'changed file has another hash): 404 STATEMENT_NOT_FOUND. Limits as above.',
        body: VerifyStatementHash,
        response: responses,
      },
    },
    (request) => answer({ sha256: request.body.sha256.toLowerCase() }),
  )

  api.post(
    '/statements/verify/file',
    {
      schema: {
        tags: ['statements'],
        summary: 'Check a statement by uploading its file (public)',
        description:
          'The file itself as the body (`application/pdf`, `text/csv` or ' +
          '`application/octet-stream`, at most 10 MB; a larger one is checked by its hash): its ' +
          'SHA-256 is looked up. Answers as the check by code; a file of no statement (one byte ' +
          'changed is another file): 404. Limits as above.',
        consumes: FILE_TYPES,
        response: responses,
      },
    },
    (request) => {
      const body = request.body
      if (!Buffer.isBuffer(body) || body.length === 0) {
        throw new ProblemError(422, 'VALIDATION_FAILED', 'The body must be the statement file.', {
          title: 'Unprocessable Content',
          errors: [{ field: '/body', message: 'must be the file’s bytes' }],
        })
      }
      return answer({ sha256: createHash('sha256').update(body).digest('hex') })
    },
  )
}
