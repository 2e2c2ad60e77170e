import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import type { Config } from './config.ts'
import { normaliseEmail } from './domain/auth/rules.ts'
import { REVEALS_PER_MINUTE } from './domain/cards/routes.ts'
import { TOKENS_PER_MINUTE } from './domain/kyc/routes.ts'
import { type Hit, type Limit, rateLimited } from './infra/rate-limit.ts'
import type { LimitName } from './route-policy.ts'

/** What one named limit adds to a route: a check before the handler, maybe an onSend after. */
export interface LimitGuard {
  preHandler: (request: FastifyRequest) => Promise<void>
  onSend?: (request: FastifyRequest, reply: FastifyReply, payload: unknown) => Promise<unknown>
}

const TRY_LATER = 'Too many attempts. Wait a moment and try again.'

/**
 * The limits route-policy.ts names, each a counter in the database (infra/rate-limit.ts)
 * so every server process shares it. Keys keep the names they had when each
 * route counted its own calls: a deployment upgraded mid-window forgets nothing.
 */
export function limitGuards(app: FastifyInstance, config: Config): Record<LimitName, LimitGuard> {
  const perIp = { max: config.authRateLimitPerIp, windowMs: 60_000 }
  const count = (key: (request: FastifyRequest) => string, limit: Limit, detail: string) => ({
    preHandler: async (request: FastifyRequest) => {
      const hit = await app.limits.hit(key(request), limit)
      if (!hit.allowed) throw rateLimited(hit.retryAfterSeconds, detail)
    },
  })
  const person = (request: FastifyRequest) => `${request.auth.tenantId}:${request.auth.userId}`
  const signIn = count((request) => `auth-ip:${request.ip}`, perIp, TRY_LATER)

  // Per address, every attempt (one attacker, many accounts); per e-mail, failures
  // only (many addresses, one account). A failure cannot be known before the check,
  // so each attempt reserves one and a success gives it back: concurrent guesses
  // never get past the limit, and signing in never locks anyone out.
  const perEmail = { max: config.authRateLimitPerEmail, windowMs: 15 * 60_000 }
  const reserved = new WeakMap<FastifyRequest, Hit>()
  const credentials: LimitGuard = {
    preHandler: async (request) => {
      await signIn.preHandler(request)
      const email = normaliseEmail((request.body as { email: string }).email)
      const hit = await app.limits.hit(`auth-email:${request.tenantId}:${email}`, perEmail)
      if (!hit.allowed) throw rateLimited(hit.retryAfterSeconds, TRY_LATER)
      reserved.set(request, hit)
    },
    // onSend, not onResponse: the hit is given back before the client hears of
    // the success, so its next attempt already sees the count without it.
    onSend: async (request, reply, payload) => {
      const hit = reserved.get(request)
      if (hit && reply.statusCode < 300) await app.limits.refund(hit)
      return payload
    },
  }

  return {
    'sign-in': signIn,
    credentials,
    // One client must not spray codes at many numbers (SMS pumping) nor guess across many.
    codes: count((request) => `otp-ip:${request.ip}`, perIp, TRY_LATER),
    'passkey-sign-in': count((request) => `passkey-ip:${request.ip}`, perIp, TRY_LATER),
    // Reveals and one-time codes are what a stolen session would go after.
    'card-secrets': count(
      (request) => `card-reveal:${person(request)}`,
      { max: REVEALS_PER_MINUTE, windowMs: 60_000 },
      'Too many reveals. Wait a moment and try again.',
    ),
    'kyc-sessions': count(
      (request) => `kyc-token:${person(request)}`,
      { max: TOKENS_PER_MINUTE, windowMs: 60_000 },
      'Too many verification sessions opened. Wait a moment and try again.',
    ),
  }
}
