import type { FastifyInstance, FastifyRequest } from 'fastify'
import { ProblemError } from './problem.ts'

/** 429 RATE_LIMITED with the wait in seconds: the Retry-After header and `retry_after`. */
export const rateLimited = (seconds: number, detail: string) =>
  new ProblemError(429, 'RATE_LIMITED', detail, {
    headers: { 'retry-after': String(seconds) },
    extensions: { retry_after: seconds },
  })

/**
 * A preHandler that counts each call against `options` (@fastify/rate-limit's
 * createRateLimit) and, past the limit, refuses it with rateLimited(detail).
 */
export function limitCalls(
  app: FastifyInstance,
  options: NonNullable<Parameters<FastifyInstance['createRateLimit']>[0]>,
  detail: string,
) {
  const limit = app.createRateLimit(options)
  return async (request: FastifyRequest) => {
    const verdict = await limit(request)
    if (!verdict.isAllowed && verdict.isExceeded) {
      throw rateLimited(Math.ceil(verdict.ttl / 1000), detail)
    }
  }
}
