import Fastify, { type FastifyInstance } from 'fastify'
import { afterAll, beforeAll, expect, it } from 'vitest'
import type { KycStatusReply, KycToken } from '../../../contract/kyc.ts'
import type { Config } from '../../config.ts'
import security from '../../infra/security.ts'
import {
  APP_TOKEN,
  SECRET_KEY,
  signedWebhook,
  startFakeSumsub,
  WEBHOOK_SECRET,
} from '../../providers/kyc/sumsub-test-support.ts'
import {
  bearer,
  createTestApp,
  describeServer,
  expectProblem,
  headers,
  signUp,
} from '../../test-support.ts'
import { kycVendorProbe } from '../developer/vendors.ts'

describeServer('identity verification through Sumsub', () => {
  let fake: Awaited<ReturnType<typeof startFakeSumsub>>
  let app: FastifyInstance
  beforeAll(async () => {
    fake = await startFakeSumsub()
    app = await createTestApp({
      KYC_PROVIDER: 'sumsub',
      SUMSUB_BASE_URL: fake.url,
      SUMSUB_APP_TOKEN: APP_TOKEN,
      SUMSUB_SECRET_KEY: SECRET_KEY,
      SUMSUB_WEBHOOK_SECRET: WEBHOOK_SECRET,
      SUMSUB_LEVEL_NAME: 'id-and-liveness',
    })
  })
  afterAll(async () => {
    await app?.close()
    await fake?.close()
  })

  it('lets the page frame Sumsub’s WebSDK, and nobody else', async () => {
    const response = await app.inject({ method: 'GET', url: '/api/docs/' })
    expect(String(response.headers['content-security-policy'])).toMatch(
      /(^|;)\s*frame-src 'self' https:\/\/in\.sumsub\.com(;|$)/,
    )
  })

  it('frames the WebSDK from SUMSUB_WEBSDK_ORIGIN when it names another host', async () => {
    const other = Fastify()
    await other.register(security, {
      config: {
        kyc: {
          provider: 'sumsub',
          sumsub: { websdkOrigin: 'https://eu.sumsub.example' },
        },
      } as Config,
    })
    other.get('/', (_request, reply) => reply.type('text/html').send('<p>ok</p>'))
    const response = await other.inject({ method: 'GET', url: '/' })
    await other.close()
    const csp = String(response.headers['content-security-policy'])
    expect(csp).toMatch(/(^|;)\s*frame-src 'self' https:\/\/eu\.sumsub\.example(;|$)/)
    expect(csp).not.toContain('in.sumsub.com')
  })

  /** A person who never verified: their raw token and user id. */
  const person = async () => {
    const pair = await signUp(app, { kyc: false })
    const user = await app.inject({
      method: 'GET',
      url: '/api/v2/user',
      headers: headers(bearer(pair.access_token)),
    })
    return { token: pair.access_token, id: user.json<{ id: string }>().id }
  }
  const status = async (token: string) =>
    (
      await app.inject({
        method: 'GET',
        url: '/api/v1/kyc/status',
        headers: headers({ authorization: token }),
      })
    ).json<KycStatusReply>()
  const deliver = (webhook: ReturnType<typeof signedWebhook>) =>
    app.inject({
      method: 'POST',
      url: '/api/v1/kyc/sumsub/webhook',
      headers: webhook.headers,
      payload: webhook.body,
    })
  const event = (
    type: string,
    externalUserId: string,
    createdAtMs: string,
    extra: Record<string, unknown> = {},
  ) => ({
    applicantId: '65f0c0ffee0000000000beef',
    inspectionId: '65f0c0ffee0000000000bead',
    correlationId: `req-${createdAtMs}`,
    levelName: 'id-and-liveness',
    externalUserId,
    type,
    reviewStatus: type === 'applicantReviewed' ? 'completed' : 'pending',
    createdAtMs,
    ...extra,
  })

  it('generate_token asks Sumsub, with a signed request, for the signed-in person', async () => {
    const { token, id } = await person()
    const response = await app.inject({
      method: 'POST',
      url: '/api/v1/kyc/sumsub/generate_token',
      headers: headers({ authorization: token }),
    })
    expect(response.statusCode, response.body).toBe(200)
    expect(response.json<KycToken>()).toMatchObject({
      token: `_act-sbx-${id}`,
      level_name: 'id-and-liveness',
      provider: 'sumsub',
    })
    const call = fake.seen.at(-1)!
    expect(call.signatureOk).toBe(true)
    expect(JSON.parse(call.body)).toMatchObject({ userId: id, levelName: 'id-and-liveness' })
  })

  it('the vendors list’s probe asks Sumsub a signed question', async () => {
    const sumsub = {
      baseUrl: fake.url,
      appToken: APP_TOKEN,
      secretKey: SECRET_KEY,
      webhookSecret: WEBHOOK_SECRET,
    }
    const probe = kycVendorProbe(app, { kyc: { provider: 'sumsub', sumsub } } as Config)
    // The app token's prefix says which Sumsub environment it belongs to.
    expect(probe).toMatchObject({ kind: 'kyc', name: 'sumsub', mode: 'sandbox' })
    const live = kycVendorProbe(app, {
      kyc: { provider: 'sumsub', sumsub: { ...sumsub, appToken: 'prd:abc.def' } },
    } as Config)
    expect(live.mode).toBe('live')
    await probe.check()
    expect(fake.seen.at(-1)?.signatureOk).toBe(true)
    const wrong = kycVendorProbe(app, {
      kyc: { provider: 'sumsub', sumsub: { ...sumsub, secretKey: 'wrong' } },
    } as Config)
    await expect(wrong.check()).rejects.toThrow()
  })

  it('the sandbox screen’s submission is refused: this deployment uses Sumsub', async () => {
    const { token } = await person()
    const response = await app.inject({
      method: 'POST',
      url: '/api/v1/kyc/sandbox/applicant',
      headers: headers({ authorization: token }),
      payload: {
        first_name: 'Ada',
        last_name: 'Lovelace',
        document_type: 'PASSPORT',
        country: 'GB',
        selfie: true,
      },
    })
    expectProblem(response, 409, 'KYC_PROVIDER_MISMATCH')
  })

  it('signed webhooks move the status: pending, then approved', async () => {
    const { token, id } = await person()
    const pending = await deliver(
      signedWebhook(event('applicantPending', id, '2024-05-01 10:00:00.000')),
    )
    expect(pending.statusCode, pending.body).toBe(200)
    expect(pending.json()).toEqual({ outcome: 'applied' })
    expect((await status(token)).status).toBe('PENDING')

    const green = event('applicantReviewed', id, '2024-05-01 10:05:00.000', {
      reviewResult: { reviewAnswer: 'GREEN' },
    })
    // SUMSUB_WEBHOOK_DIGEST_ALG is HMAC_SHA256_HEX: the sender cannot switch to another one.
    expectProblem(
      await deliver(signedWebhook(green, WEBHOOK_SECRET, 'sha512')),
      401,
      'WEBHOOK_SIGNATURE_INVALID',
    )
    expect((await deliver(signedWebhook(green))).json()).toEqual({ outcome: 'applied' })
    const reply = await status(token)
    expect(reply.status).toBe('APPROVED')
    expect(reply.history).toEqual([
      { status: 'APPROVED', at: '2024-05-01T10:05:00.000Z' },
      { status: 'PENDING', at: '2024-05-01T10:00:00.000Z' },
    ])
  })

  it('a webhook with a wrong digest, or none, is 401 and changes nothing', async () => {
    const { token, id } = await person()
    const forged = signedWebhook(
      event('applicantReviewed', id, '2024-05-01 10:00:00.000', {
        reviewResult: { reviewAnswer: 'GREEN' },
      }),
      'not-the-webhook-secret',
    )
    expectProblem(await deliver(forged), 401, 'WEBHOOK_SIGNATURE_INVALID')
    const genuine = signedWebhook(event('applicantPending', id, '2024-05-01 10:00:00.000'))
    const tampered = {
      ...genuine,
      body: genuine.body.replace('applicantPending', 'applicantOnHold'),
    }
    expectProblem(await deliver(tampered), 401, 'WEBHOOK_SIGNATURE_INVALID')
    const { 'x-payload-digest': _digest, ...unsigned } = genuine.headers
    expectProblem(
      await app.inject({
        method: 'POST',
        url: '/api/v1/kyc/sumsub/webhook',
        headers: unsigned,
        payload: genuine.body,
      }),
      401,
      'WEBHOOK_SIGNATURE_INVALID',
    )
    expect(await status(token)).toMatchObject({ status: 'UNVERIFIED', history: [] })
  })

  it('a redelivered event counts once; an older event never undoes a newer one', async () => {
    const { token, id } = await person()
    const pending = signedWebhook(event('applicantPending', id, '2024-06-01 09:00:00.000'))
    const retry = signedWebhook(
      event('applicantReviewed', id, '2024-06-01 09:10:00.000', {
        reviewResult: {
          reviewAnswer: 'RED',
          reviewRejectType: 'RETRY',
          moderationComment: 'The document is cut off.',
          rejectLabels: ['BAD_PROOF_OF_IDENTITY'],
        },
      }),
    )
    expect((await deliver(pending)).json()).toEqual({ outcome: 'applied' })
    expect((await deliver(retry)).json()).toEqual({ outcome: 'applied' })
    expect((await deliver(retry)).json()).toEqual({ outcome: 'duplicate' })
    // Sumsub retries a delivery it thought failed, hours later: the old pending comes again.
    expect((await deliver(pending)).json()).toEqual({ outcome: 'duplicate' })
    const late = signedWebhook(event('applicantOnHold', id, '2024-06-01 09:05:00.000'))
    expect((await deliver(late)).json()).toEqual({ outcome: 'stale' })

    const reply = await status(token)
    expect(reply).toMatchObject({ status: 'SOFT_REJECT', can_retry: true })
    expect(reply.history).toEqual([
      { status: 'SOFT_REJECT', at: '2024-06-01T09:10:00.000Z', reason: 'The document is cut off.' },
      { status: 'PENDING', at: '2024-06-01T09:00:00.000Z' },
    ])
  })

  it.each([
    [{ reviewAnswer: 'RED', reviewRejectType: 'FINAL', rejectLabels: ['FORGERY'] }, 'REJECT'],
    [{ reviewAnswer: 'RED', reviewRejectType: 'FINAL', rejectLabels: ['DUPLICATE'] }, 'DOUBLE'],
  ])('a final refusal %j is %s: no new token', async (reviewResult, expected) => {
    const { token, id } = await person()
    await deliver(
      signedWebhook(event('applicantReviewed', id, '2024-07-01 12:00:00.000', { reviewResult })),
    )
    expect(await status(token)).toMatchObject({ status: expected, can_retry: false })
    const response = await app.inject({
      method: 'POST',
      url: '/api/v1/kyc/sumsub/generate_token',
      headers: headers({ authorization: token }),
    })
    expectProblem(response, 409, 'KYC_FINAL')
  })

  it('events of no one we know, or that move no status, are accepted and ignored', async () => {
    const { token, id } = await person()
    for (const payload of [
      event('applicantReviewed', '00000000-0000-4000-8000-000000000000', '2024-05-01 10:00:00', {
        reviewResult: { reviewAnswer: 'GREEN' },
      }),
      event('applicantReviewed', 'not-a-uuid', '2024-05-01 10:00:00', {
        reviewResult: { reviewAnswer: 'GREEN' },
      }),
      event('applicantCreated', id, '2024-05-01 10:00:00'),
    ]) {
      const response = await deliver(signedWebhook(payload))
      expect(response.statusCode, response.body).toBe(200)
      expect(response.json()).toEqual({ outcome: 'ignored' })
    }
    expect((await status(token)).status).toBe('UNVERIFIED')
  })
})
