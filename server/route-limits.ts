import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import type { PasswordResetRequest } from '../contract/otp.ts'
import type { Config } from './config.ts'
import { REVEALS_PER_MINUTE } from './domain/cards/routes.ts'
import { TOKENS_PER_MINUTE } from './domain/kyc/routes.ts'
import { recipientOf } from './domain/otp/http.ts'
import { normaliseEmail } from './domain/otp/rules.ts'
import { VIEWS_PER_IP_PER_MINUTE } from './domain/payment-requests/routes.ts'
import { VERIFY_CALLS, VERIFY_MISSES } from './domain/statements/routes.ts'
import { LOOKUPS_PER_IP_PER_MINUTE, LOOKUPS_PER_MINUTE } from './domain/transfers/routes.ts'
import { type Limit, limitCalls, limitFailures } from './infra/rate-limit.ts'
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
  const calls = (key: (request: FastifyRequest) => string, limit: Limit, detail = TRY_LATER) => ({
    preHandler: limitCalls(app, { ...limit, key }, detail),
  })
  const person = (request: FastifyRequest) => `${request.auth.tenantId}:${request.auth.userId}`
  const signIn = calls((request) => `auth-ip:${request.ip}`, perIp)
  // Per e-mail, failures only (many addresses, one account): a success gives its
  // attempt back, so signing in never locks anyone out (infra/rate-limit.ts).
  const emailFailures = limitFailures(
    app,
    {
      max: config.authRateLimitPerEmail,
      windowMs: 15 * 60_000,
      key: (request) =>
        `auth-email:${request.tenantId}:${normaliseEmail((request.body as { email: string }).email)}`,
    },
    TRY_LATER,
  )

  return {
    'sign-in': signIn,
    // Per address, every attempt (one attacker, many accounts), and per e-mail, failures.
    credentials: {
      preHandler: async (request) => {
        await signIn.preHandler(request)
        await emailFailures.preHandler(request)
      },
      onSend: emailFailures.onSend,
    },
    // One client must not spray codes at many numbers (SMS pumping) nor guess across many.
    codes: calls((request) => `otp-ip:${request.ip}`, perIp),
    // Wrong codes per address across every e-mail and phone (sign-in and reset share the
    // count), on top of each identifier's own limit: a right code gives its attempt back.
    'wrong-codes': limitFailures(
      app,
      {
        max: config.otp.maxAttemptsPerIp,
        windowMs: 15 * 60_000,
        key: (request) => `otp-wrong-ip:${request.ip}`,
      },
      'Too many wrong codes from this address. Wait a while and try again.',
    ),
    // Counted for every contact alike, known or not: a 429 tells nobody who has an account.
    'password-reset': calls(
      (request) => {
        const { channel, identifier } = recipientOf(request.body as PasswordResetRequest)
        return `password-reset:${request.tenantId}:${channel}:${identifier}`
      },
      { max: config.authRateLimitPerEmail, windowMs: 15 * 60_000 },
    ),
    // A wrong current password is a guess: counted per person, a success given back.
    'password-change': limitFailures(
      app,
      {
        max: config.authRateLimitPerEmail,
        windowMs: 15 * 60_000,
        key: (request) => `password-change:${request.auth.userId}`,
      },
      TRY_LATER,
    ),
    'passkey-sign-in': calls((request) => `passkey-ip:${request.ip}`, perIp),
    // Reveals and one-time codes are what a stolen session would go after.
    'card-secrets': calls(
      (request) => `card-reveal:${person(request)}`,
      { max: REVEALS_PER_MINUTE, windowMs: 60_000 },
      'Too many reveals. Wait a moment and try again.',
    ),
    // A token is 128 bits of MAC: the limit keeps a flood of guesses off the database.
    'lockdown-links': calls((request) => `lockdown-link-ip:${request.ip}`, perIp),
    'kyc-sessions': calls(
      (request) => `kyc-token:${person(request)}`,
      { max: TOKENS_PER_MINUTE, windowMs: 60_000 },
      'Too many verification sessions opened. Wait a moment and try again.',
    ),
    // Every lookup counts, found or not: a 429 tells nobody who has an account.
    'people-lookup': calls(
      (request) => `people-lookup:${person(request)}`,
      { max: LOOKUPS_PER_MINUTE, windowMs: 60_000 },
      'Too many look-ups. Wait a minute and try again.',
    ),
    'people-lookup-ip': calls(
      (request) => `people-lookup-ip:${request.ip}`,
      { max: LOOKUPS_PER_IP_PER_MINUTE, windowMs: 60_000 },
      'Too many look-ups from this address. Wait a minute and try again.',
    ),
    'payment-request-views': calls(
      (request) => `payment-request-view:${request.ip}`,
      { max: VIEWS_PER_IP_PER_MINUTE, windowMs: 60_000 },
      'Too many payment requests opened from this address. Wait a minute and try again.',
    ),
    'statement-checks': calls(
      (request) => `statement-verify:${request.ip}`,
      VERIFY_CALLS,
      'Too many checks from this address: wait and try again.',
    ),
    // A miss is reserved before the lookup: past the limit even a right code answers 429,
    // so a guesser learns nothing from what a hit or a miss would have said.
    'statement-misses': limitFailures(
      app,
      { ...VERIFY_MISSES, key: (request) => `statement-verify-miss:${request.ip}` },
      'Too many checks that matched nothing: wait and try again.',
    ),
  }
}
