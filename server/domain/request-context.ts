import type { FastifyRequest } from 'fastify'

/**
 * Where a sign-in came from: what every way in (a password, a code, Telegram,
 * a passkey) hands the session it opens. Kernel: the codes (otp) sign people
 * in below auth, which opens the session.
 */
export interface RequestContext {
  tenantId: string
  userAgent: string | undefined
  /** Where the sign-in came from (sessions list); absent in callers that do not know. */
  ip?: string | undefined
  appEnv?: 'web' | 'telegram' | undefined
}

/** What every sign-in records about where it came from (the sessions list shows it). */
export const requestContext = (request: FastifyRequest): RequestContext => ({
  tenantId: request.tenantId,
  userAgent: request.headers['user-agent'],
  ip: request.ip,
  appEnv: request.appEnv,
})
