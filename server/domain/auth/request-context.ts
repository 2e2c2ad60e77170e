import type { FastifyRequest } from 'fastify'
import type { RequestContext } from './service.ts'

/** What every sign-in records about where it came from (the sessions list shows it). */
export const requestContext = (request: FastifyRequest): RequestContext => ({
  tenantId: request.tenantId,
  userAgent: request.headers['user-agent'],
  ip: request.ip,
  appEnv: request.appEnv,
})
