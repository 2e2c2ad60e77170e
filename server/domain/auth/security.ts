import type { FastifyInstance, FastifyRequest } from 'fastify'
import fp from 'fastify-plugin'
import { STEP_UP_REQUIRED } from '../../../contract/security.ts'
import type { Config } from '../../config.ts'
import { assertNever, ProblemError } from '../../infra/problem.ts'
import { PasskeyService } from './passkeys.ts'
import { PASSWORD_RESET_JOB, PasswordService } from './passwords.ts'
import { SessionService } from './sessions.ts'
import { StepUpError, type StepUpFailure, StepUpService } from './step-up.ts'

declare module 'fastify' {
  interface FastifyInstance {
    /** Issue 21's use cases, built once: passkeys, the step-up, sessions; issue 26's passwords. */
    security: {
      passkeys: PasskeyService
      stepUp: StepUpService
      sessions: SessionService
      passwords: PasswordService
    }
    /**
     * The second look, for the routes server/route-policy.ts names: a signed-in
     * session needs a proof of presence at most five minutes old (else 403
     * STEP_UP_REQUIRED with the methods it can use); an API key passes (the
     * policy decides which acts a key may do at all, and with which role).
     */
    requireStepUp: (request: FastifyRequest) => Promise<void>
  }
}

/** The one switch from step-up failures to HTTP answers. */
export function stepUpProblem(failure: StepUpFailure): ProblemError {
  switch (failure.kind) {
    // 403, not 401: a 401 starts the app's token refresh (docs/product.md §4); the
    // session is fine, it only has to show its person is still there.
    case 'STEP_UP_REQUIRED':
      return new ProblemError(
        403,
        STEP_UP_REQUIRED,
        'Confirm it is you before this: a passkey or a one-time code, at most 5 minutes old.',
        { extensions: { methods: failure.methods } },
      )
    case 'SESSION_ENDED':
      return new ProblemError(401, 'UNAUTHORIZED', 'The session has ended. Sign in again.', {
        headers: { 'www-authenticate': 'Bearer' },
      })
    case 'TELEGRAM_BIOMETRICS_INVALID':
      return new ProblemError(
        400,
        failure.kind,
        'Telegram biometrics did not confirm it is you here. Use a one-time code instead.',
      )
    default:
      return assertNever(failure)
  }
}

export const translateStepUpError = (error: unknown) =>
  error instanceof StepUpError ? stepUpProblem(error.failure) : undefined

export default fp(
  async function security(app: FastifyInstance, opts: { config: Config }) {
    const { auth } = app.services
    const passkeys = new PasskeyService(app.db, auth, opts.config.webauthn)
    const stepUp = new StepUpService(app.db, app.services.otp, passkeys)
    const passwords = new PasswordService(app.db, auth, app.services.otp, {
      otpTtl: opts.config.otp.ttl,
      resendInterval: opts.config.otp.resendInterval,
    })
    app.jobs.register(PASSWORD_RESET_JOB, passwords.sendReset)
    app.decorate('security', {
      passkeys,
      stepUp,
      sessions: new SessionService(app.db),
      passwords,
    })

    const requireStepUp = async (request: FastifyRequest) => {
      if (request.apiKey) return
      try {
        await stepUp.require(request.auth)
      } catch (error) {
        throw translateStepUpError(error) ?? error
      }
    }
    app.decorate('requireStepUp', requireStepUp)
  },
  { name: 'security', dependencies: ['db', 'auth', 'jobs', 'services', 'rate-limits'] },
)
