import { STATUS_CODES } from 'node:http'
import type { Socket } from 'node:net'
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import fp from 'fastify-plugin'
import { PROBLEM_CONTENT_TYPE, type Problem } from '../../contract/problem.ts'
import type { ProblemCode } from '../../contract/problem-codes.ts'
import { acceptedLanguage } from './accept-language.ts'
import { ProblemError, problemType } from './problem.ts'
import { problemDetail } from './problem-words.ts'

/**
 * Sends a problem with its `detail` in the request's language (Accept-Language,
 * issue 34) where the code has words in it, the server's English otherwise;
 * `Content-Language` says which. `code`, `type`, `title` and `status` stay as
 * they are for programs.
 */
function send(
  request: FastifyRequest,
  reply: FastifyReply,
  problem: Problem,
  headers: Record<string, string> = {},
) {
  const language = acceptedLanguage(request.headers['accept-language'])
  const detail = problemDetail(problem, language)
  const vary = String(reply.getHeader('vary') ?? '')
  return reply
    .code(problem.status)
    .headers(headers)
    .header('content-language', detail === undefined ? 'en' : language)
    .header(
      'vary',
      /accept-language/i.test(vary) ? vary : [vary, 'Accept-Language'].filter(Boolean).join(', '),
    )
    .type(PROBLEM_CONTENT_TYPE)
    .send(detail === undefined ? problem : { ...problem, detail })
}

function validationProblem(error: FastifyError): Problem {
  const errors = (error.validation ?? []).map((issue) => {
    const missing = (issue.params as { missingProperty?: string }).missingProperty
    const extra = (issue.params as { additionalProperty?: string }).additionalProperty
    const path = [error.validationContext, issue.instancePath.replace(/^\//, ''), missing ?? extra]
      .filter(Boolean)
      .join('/')
    const message = extra ? `unknown field "${extra}"` : (issue.message ?? 'is invalid')
    return { field: `/${path}`, message }
  })
  return {
    type: problemType('VALIDATION_FAILED'),
    title: 'Unprocessable Content',
    status: 422,
    detail: errors.map((e) => `${e.field} ${e.message}`).join('; ') || error.message,
    code: 'VALIDATION_FAILED',
    errors,
  }
}

/** Fastify's own codes as ours: `FST_ERR_CTP_BODY_TOO_LARGE` → `CTP_BODY_TOO_LARGE`. */
/** Fastify's own refusals by the codes the contract names; any other 4xx of Fastify's by its status. */
const FRAMEWORK_CODES: Record<string, ProblemCode> = {
  FST_ERR_CTP_BODY_TOO_LARGE: 'CTP_BODY_TOO_LARGE',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'CTP_INVALID_MEDIA_TYPE',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'CTP_INVALID_CONTENT_LENGTH',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'CTP_EMPTY_JSON_BODY',
}

const codeOf = (error: { code?: string; statusCode?: number }): ProblemCode =>
  (error.code && FRAMEWORK_CODES[error.code]) ||
  (error.statusCode === 404
    ? 'NOT_FOUND'
    : error.statusCode === 429
      ? 'RATE_LIMITED'
      : 'BAD_REQUEST')

/**
 * Errors Fastify meets before a route is found — a path parameter over
 * `maxParamLength` (414), a path that does not decode (400) — as problems
 * (the `frameworkErrors` option; Fastify's own answer is plain JSON).
 */
export function frameworkErrors(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  const problem =
    error.code === 'FST_ERR_MAX_PARAM_LENGTH'
      ? new ProblemError(414, 'URI_TOO_LONG', 'A path segment of the request is too long.')
      : error.code === 'FST_ERR_BAD_URL'
        ? new ProblemError(400, 'BAD_URL', 'The request path is malformed.')
        : new ProblemError(error.statusCode ?? 500, codeOf(error), 'The request was not routed.')
  return send(request, reply, problem.toProblem())
}

/**
 * What Node's HTTP parser refuses before Fastify sees a request — a request
 * that timed out (408), headers over the limit (431), a line that does not
 * parse (400) — written to the socket as a problem (the `clientErrorHandler`
 * option; Fastify's own answer is plain JSON).
 */
export function clientErrorHandler(error: NodeJS.ErrnoException, socket: Socket) {
  if (error.code === 'ECONNRESET' || socket.destroyed) return
  const [status, code, detail]: [number, ProblemCode, string] =
    error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
      ? [408, 'REQUEST_TIMEOUT', 'The request took too long to arrive.']
      : error.code === 'HPE_HEADER_OVERFLOW'
        ? [431, 'HEADERS_TOO_LARGE', 'The request headers are too large.']
        : [400, 'BAD_REQUEST', 'The request is not valid HTTP.']
  const body = JSON.stringify(new ProblemError(status, code, detail).toProblem())
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: ${PROBLEM_CONTENT_TYPE}\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    )
  }
  socket.destroy(error)
}

/**
 * One place turns every failure into problem+json (RFC 9457): domain problems,
 * schema validation (422), body parsing (400), rate limits (429) and bugs
 * (500, with nothing of the internals). Unknown routes come here from web.ts;
 * framework and client errors from the two functions above (app.ts passes
 * them to Fastify). While the server stops, a new request answers 503
 * SHUTTING_DOWN (Fastify's own 503 would be plain JSON: `return503OnClosing`
 * is off).
 */
export default fp(
  async function errors(app: FastifyInstance) {
    let closing = false
    app.addHook('preClose', async () => {
      closing = true
    })
    app.addHook('onRequest', async (_request, reply) => {
      if (!closing) return
      reply.header('connection', 'close')
      throw new ProblemError(503, 'SHUTTING_DOWN', 'The server is stopping. Try again shortly.', {
        headers: { 'retry-after': '5' },
      })
    })

    app.setErrorHandler((error: FastifyError, request, reply) => {
      if (error instanceof ProblemError) {
        if (error.status >= 500) request.log.error({ err: error }, error.message)
        return send(request, reply, error.toProblem(), error.headers)
      }
      if (error.validation) return send(request, reply, validationProblem(error))

      const status = error.statusCode ?? 500
      if (status >= 500) {
        request.log.error({ err: error }, 'unhandled error')
        return send(request, reply, {
          type: problemType('INTERNAL'),
          title: 'Internal Server Error',
          status: 500,
          detail: 'Something went wrong on our side. It has been logged.',
          code: 'INTERNAL',
        })
      }
      // Fastify's own 4xx (malformed JSON, body too large, unsupported media type…).
      return send(
        request,
        reply,
        new ProblemError(status, codeOf(error), error.message).toProblem(),
        status === 429 ? { 'retry-after': String(reply.getHeader('retry-after') ?? 60) } : {},
      )
    })
  },
  { name: 'errors' },
)
