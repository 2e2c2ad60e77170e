import type { FastifyError, FastifyInstance, FastifyReply } from 'fastify'
import fp from 'fastify-plugin'
import { PROBLEM_CONTENT_TYPE, type Problem } from '../../contract/problem.ts'
import { ProblemError, problemType } from './problem.ts'

function send(reply: FastifyReply, problem: Problem, headers: Record<string, string> = {}) {
  return reply.code(problem.status).headers(headers).type(PROBLEM_CONTENT_TYPE).send(problem)
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

/**
 * One place turns every failure into problem+json (RFC 9457): domain problems,
 * schema validation (422), body parsing (400), rate limits (429) and bugs
 * (500, with nothing of the internals). Unknown routes come here from web.ts.
 */
export default fp(
  async function errors(app: FastifyInstance) {
    app.setErrorHandler((error: FastifyError, request, reply) => {
      if (error instanceof ProblemError) {
        if (error.status >= 500) request.log.error({ err: error }, error.message)
        return send(reply, error.toProblem(), error.headers)
      }
      if (error.validation) return send(reply, validationProblem(error))

      const status = error.statusCode ?? 500
      if (status >= 500) {
        request.log.error({ err: error }, 'unhandled error')
        return send(reply, {
          type: problemType('INTERNAL'),
          title: 'Internal Server Error',
          status: 500,
          detail: 'Something went wrong on our side. It has been logged.',
          code: 'INTERNAL',
        })
      }
      // Fastify's own 4xx (malformed JSON, body too large, unsupported media type…).
      const code = error.code?.replace(/^FST_ERR_/, '') ?? 'BAD_REQUEST'
      return send(
        reply,
        new ProblemError(status, code, error.message).toProblem(),
        status === 429 ? { 'retry-after': String(reply.getHeader('retry-after') ?? 60) } : {},
      )
    })
  },
  { name: 'errors' },
)
