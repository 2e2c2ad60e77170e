import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import {
  KycStatusReply,
  KycToken,
  KycWebhookReply,
  SandboxApplicantBody,
  SandboxKycDecisionBody,
} from '../../../contract/kyc.ts'
import { Problem } from '../../../contract/problem.ts'
import type { Config } from '../../config.ts'
import { assertNever, ProblemError, translateErrors } from '../../infra/problem.ts'
import { KycProviderError } from '../../providers/kyc/kyc.ts'
import { readWebhook, SumsubKyc } from '../../providers/kyc/sumsub.ts'
import { KycError } from './errors.ts'

/** The one switch from KYC failures to HTTP answers. */
export const toProblem = (error: unknown) => {
  if (error instanceof KycProviderError) {
    return new ProblemError(
      502,
      'KYC_PROVIDER_UNAVAILABLE',
      'The identity-verification provider did not answer; try again shortly.',
    )
  }
  if (!(error instanceof KycError)) return undefined
  const failure = error.failure
  switch (failure.kind) {
    case 'USER_NOT_FOUND':
      return new ProblemError(404, 'USER_NOT_FOUND', 'The signed-in user no longer exists.')
    case 'PROVIDER_MISMATCH':
      return new ProblemError(
        409,
        'KYC_PROVIDER_MISMATCH',
        failure.unconfigured
          ? 'This deployment has no identity-verification provider configured (KYC_PROVIDER): no verification can be started.'
          : `This deployment verifies identities through ${failure.provider}: open its SDK with a token from /kyc/sumsub/generate_token.`,
      )
    case 'KYC_IN_REVIEW':
      return new ProblemError(
        409,
        'KYC_IN_REVIEW',
        'A verification is already under review: wait for its decision.',
        { extensions: { kyc_status: failure.status } },
      )
    case 'KYC_ALREADY_APPROVED':
      return new ProblemError(409, 'KYC_ALREADY_APPROVED', 'The identity is already verified.', {
        extensions: { kyc_status: failure.status },
      })
    case 'COUNTRY_NOT_SUPPORTED':
      return new ProblemError(
        422,
        'COUNTRY_NOT_SUPPORTED',
        `This service verifies people from ${failure.supported.join(', ')} only.`,
        {
          errors: [{ field: '/body/country', message: `One of: ${failure.supported.join(', ')}.` }],
        },
      )
    case 'KYC_FINAL':
      return new ProblemError(
        409,
        'KYC_FINAL',
        'The verification was refused for good: it cannot be submitted again. Contact support.',
        { extensions: { kyc_status: failure.status } },
      )
    default:
      return assertNever(failure)
  }
}

const problems = { 401: Problem, 404: Problem, 423: Problem }

/**
 * SDK tokens one person may ask for per minute: each is a signed call to the
 * provider (its quota, our outbound connections); the SDK asks for one when
 * it opens and when its token runs out, so a person never needs many.
 */
export const TOKENS_PER_MINUTE = 5

/** v1 (raw token): the signed-in person's verification; registers the sandbox's review job. */
export default async function kycRoutes(app: FastifyInstance, _opts: { config: Config }) {
  const service = app.services.kyc
  const api = app.withTypeProvider<TypeBoxTypeProvider>()

  api.get(
    '/kyc/status',
    {
      schema: {
        tags: ['kyc'],
        summary: 'Where the signed-in person’s identity verification stands',
        description:
          'The status (docs/product.md §4), whether a new submission is accepted now (`can_retry`: ' +
          'UNVERIFIED, SOFT_REJECT and DECLINED), the provider, and the history, newest first.',
        response: { 200: KycStatusReply, ...problems },
      },
    },
    (request) => translateErrors(service.status(request.auth), toProblem),
  )

  api.post(
    '/kyc/sumsub/generate_token',
    {
      schema: {
        tags: ['kyc'],
        summary: 'An access token for the verification provider’s SDK',
        description:
          'For the signed-in person (the provider knows them by their user id). With ' +
          '`provider: sandbox` the app shows its own verification screen instead of the SDK. ' +
          '409 KYC_ALREADY_APPROVED once verified, 409 KYC_FINAL after REJECT or DOUBLE; ' +
          '502 KYC_PROVIDER_UNAVAILABLE when the provider does not answer; 429 RATE_LIMITED ' +
          'after 5 in a minute. Any body is ignored.',
        response: { 200: KycToken, 409: Problem, 429: Problem, 502: Problem, ...problems },
      },
    },
    (request) => translateErrors(service.token(request.auth), toProblem),
  )

  api.post(
    '/kyc/sandbox/applicant',
    {
      schema: {
        tags: ['kyc'],
        summary: 'Submit the sandbox verification screen',
        description:
          'The person’s name, document and country, and the selfie step done: the status ' +
          'becomes PENDING, and the sandbox decides after SANDBOX_KYC_MS (a name containing ' +
          '"reject" is DECLINED, any other APPROVED) unless POST /api/sandbox/kyc/decision ' +
          'decides first. Accepted while the status is UNVERIFIED, SOFT_REJECT or DECLINED; ' +
          'otherwise 409 KYC_IN_REVIEW, KYC_ALREADY_APPROVED or KYC_FINAL (REJECT, DOUBLE). ' +
          '409 KYC_PROVIDER_MISMATCH when the deployment uses another provider.',
        body: SandboxApplicantBody,
        response: { 201: KycStatusReply, 409: Problem, 422: Problem, ...problems },
      },
    },
    async (request, reply) => {
      const status = await translateErrors(
        service.submitSandboxApplicant(request.auth, request.body),
        toProblem,
      )
      return reply.code(201).send(status)
    },
  )
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The webhook's body as received, for its digest. */
    rawBody?: Buffer
  }
}

/**
 * POST /api/v1/kyc/sumsub/webhook, outside the API scopes: Sumsub sends no
 * tenant and no token. Registered only with KYC_PROVIDER=sumsub. The digest
 * is checked on the bytes received, so this plugin parses JSON itself.
 */
export async function kycWebhookRoutes(app: FastifyInstance, _opts: { config: Config }) {
  const sumsub = app.providers.kyc
  if (!(sumsub instanceof SumsubKyc)) return
  const service = app.services.kyc

  app.removeContentTypeParser('application/json')
  app.addContentTypeParser(
    'application/json',
    { parseAs: 'buffer', bodyLimit: 1024 * 1024 },
    (request: FastifyRequest, body: Buffer, done) => {
      request.rawBody = body
      try {
        done(null, body.length === 0 ? undefined : JSON.parse(body.toString('utf8')))
      } catch {
        done(new ProblemError(400, 'MALFORMED_JSON', 'The request body is not valid JSON.'))
      }
    },
  )

  app.withTypeProvider<TypeBoxTypeProvider>().post(
    '/kyc/sumsub/webhook',
    {
      schema: {
        tags: ['kyc'],
        summary: 'Sumsub’s user-verification webhook',
        description:
          'Checked by its X-Payload-Digest (hex HMAC of the raw body under SUMSUB_WEBHOOK_SECRET, ' +
          'algorithm from X-Payload-Digest-Alg): anything else is 401 WEBHOOK_SIGNATURE_INVALID. ' +
          'Moves the status of the person whose user id is `externalUserId`: applicantPending → ' +
          'PENDING, applicantOnHold → HOLD, applicantReviewed GREEN → APPROVED, RED RETRY → ' +
          'SOFT_REJECT, RED FINAL → REJECT (DOUBLE for a duplicate), other RED → DECLINED, ' +
          'applicantReset → UNVERIFIED. Each event counts once; an event older than the last ' +
          'applied one moves nothing (`stale`).',
        response: { 200: KycWebhookReply, 400: Problem, 401: Problem },
      },
    },
    async (request) => {
      const rawBody = request.rawBody ?? Buffer.alloc(0)
      if (!sumsub.verifyWebhook(rawBody, request.headers)) {
        request.log.warn('KYC webhook with a wrong digest refused')
        throw new ProblemError(
          401,
          'WEBHOOK_SIGNATURE_INVALID',
          'The X-Payload-Digest does not match the body.',
        )
      }
      const reply = await service.receiveWebhook(rawBody, readWebhook(request.body))
      request.log.info({ outcome: reply.outcome }, 'KYC webhook received')
      return reply
    },
  )
}

/**
 * POST /api/sandbox/kyc/decision: the sandbox operator decides for the person
 * whose token comes with it (as the v1 raw token or v2 Bearer token), in the
 * tenant of X-Tenant-Id.
 */
export async function sandboxKycRoutes(app: FastifyInstance, _opts: { config: Config }) {
  const service = app.services.kyc
  app.addHook('onRequest', app.requireTenant)
  app.addHook('onRequest', (request) => {
    const bearer = /^bearer /i.test(request.headers.authorization ?? '')
    return app.authenticate(bearer ? 'bearer' : 'raw')(request)
  })

  app.withTypeProvider<TypeBoxTypeProvider>().post(
    '/kyc/decision',
    {
      schema: {
        tags: ['sandbox'],
        summary: 'Decide the signed-in person’s identity verification (sandbox)',
        description:
          'Sets the status to any of docs/product.md §4 at once, as the provider’s reviewer would, with ' +
          'an optional reason; the same status again changes nothing. Answers the new status.',
        body: SandboxKycDecisionBody,
        response: { 200: KycStatusReply, 401: Problem, 404: Problem, 422: Problem },
      },
    },
    (request) =>
      translateErrors(
        service.decide(request.auth, { status: request.body.status, reason: request.body.reason }),
        toProblem,
      ),
  )
}
