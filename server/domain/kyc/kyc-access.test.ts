import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, expect, it } from 'vitest'
import type { KycStatusReply, KycToken } from '../../../contract/kyc.ts'
import { DEMO_TENANT_ID } from '../../../contract/tenancy.ts'
import type { Config } from '../../config.ts'
import {
  createTenant,
  createTestApp,
  decideKyc,
  describeServer,
  expectProblem,
  headers,
  signUp,
  stepUp,
} from '../../test-support.ts'
import { kycVendorProbe } from '../developer/vendors.ts'
import { applicant, DECISION_MS, kycCalls } from './kyc-test-support.ts'
import { TOKENS_PER_MINUTE } from './routes.ts'

describeServer('identity verification (sandbox provider): who may call it, and how often', () => {
  let app: FastifyInstance
  beforeAll(async () => {
    app = await createTestApp({ SANDBOX_KYC_MS: String(DECISION_MS) })
  })
  afterAll(() => app?.close())

  const { v1, status, generateToken, unverified } = kycCalls(() => app)

  it('generate_token: a sandbox token and the level, refused once approved or finally refused', async () => {
    const token = await unverified()
    const before = Date.now()
    const response = await generateToken(token)
    expect(response.statusCode, response.body).toBe(200)
    const body = response.json<KycToken>()
    expect(body).toMatchObject({
      token: expect.stringMatching(/^sbx_act-/),
      level_name: 'basic-kyc-level',
      provider: 'sandbox',
    })
    expect(Date.parse(body.expires_at)).toBeGreaterThanOrEqual(before + 1_800_000 - 1_000)

    await decideKyc(app, token, 'PENDING')
    expect((await generateToken(token)).statusCode).toBe(200)
    await decideKyc(app, token, 'APPROVED')
    expectProblem(await generateToken(token), 409, 'KYC_ALREADY_APPROVED')
    await decideKyc(app, token, 'REJECT')
    expectProblem(await generateToken(token), 409, 'KYC_FINAL')
  })

  it('the calls need the person’s token; the decision takes it raw or as Bearer', async () => {
    expectProblem(
      await app.inject({ method: 'GET', url: '/api/v1/kyc/status', headers: headers() }),
      401,
      'UNAUTHORIZED',
    )
    expectProblem(
      await app.inject({
        method: 'POST',
        url: '/api/sandbox/kyc/decision',
        headers: headers(),
        payload: { status: 'APPROVED' },
      }),
      401,
      'UNAUTHORIZED',
    )
    const token = await unverified()
    const raw = await app.inject({
      method: 'POST',
      url: '/api/sandbox/kyc/decision',
      headers: v1(token),
      payload: { status: 'HOLD' },
    })
    expect(raw.statusCode, raw.body).toBe(200)
    expect((await status(token)).status).toBe('HOLD')
    expectProblem(
      await app.inject({
        method: 'POST',
        url: '/api/sandbox/kyc/decision',
        headers: v1(token),
        payload: { status: 'VERIFIED' },
      }),
      422,
      'VALIDATION_FAILED',
    )
  })

  it('one person’s verification is theirs alone, in their tenant alone', async () => {
    const alice = await unverified()
    const bob = await unverified()
    await decideKyc(app, alice, 'REJECT')
    expect((await status(bob)).status).toBe('UNVERIFIED')
    expect((await status(bob)).history).toEqual([])

    const other = await createTenant(app)
    const carol = (await signUp(app, { headers: headers({ 'x-tenant-id': other }) })).access_token
    // signUp verified Carol in her own tenant.
    const mine = await app.inject({
      method: 'GET',
      url: '/api/v1/kyc/status',
      headers: headers({ 'x-tenant-id': other, authorization: carol }),
    })
    expect(mine.json<KycStatusReply>().status).toBe('APPROVED')
    // Her token is good in her tenant only: no decision for her under the demo tenant.
    expectProblem(
      await app.inject({
        method: 'POST',
        url: '/api/sandbox/kyc/decision',
        headers: headers({ 'x-tenant-id': DEMO_TENANT_ID, authorization: carol }),
        payload: { status: 'REJECT' },
      }),
      401,
      'UNAUTHORIZED',
    )
  })

  it('the vendors list carries the sandbox KYC provider once, checked and up', async () => {
    const probe = kycVendorProbe(app, { kyc: { provider: 'sandbox' } } as Config)
    expect(probe).toMatchObject({ kind: 'kyc', name: 'sandbox', mode: 'sandbox' })
    const response = await app.inject({
      method: 'GET',
      url: '/api/v1/developer/vendors/list',
      headers: v1(await unverified()),
    })
    expect(response.statusCode, response.body).toBe(200)
    const kyc = response
      .json<{ data: { kind: string }[] }>()
      .data.filter((vendor) => vendor.kind === 'kyc')
    expect(kyc).toEqual([
      expect.objectContaining({ kind: 'kyc', name: 'sandbox', mode: 'sandbox', health: 'up' }),
    ])
  })

  it('a developer key cannot verify for its owner: every KYC route wants the person', async () => {
    const token = await unverified()
    await stepUp(app, token) // creating a key asks for the second look (issue 21)
    const created = await app.inject({
      method: 'POST',
      url: '/api/v1/developer/access/create',
      headers: v1(token),
      payload: { name: 'everything', role: 'PRODUCTION' },
    })
    expect(created.statusCode, created.body).toBe(201)
    const key = created.json<{ secret: string }>().secret
    const withKey = headers({ 'x-api-key': key })
    const calls = [
      { method: 'GET', url: '/api/v1/kyc/status' },
      { method: 'POST', url: '/api/v1/kyc/sumsub/generate_token' },
      { method: 'POST', url: '/api/v1/kyc/sandbox/applicant', payload: applicant },
      { method: 'POST', url: '/api/sandbox/kyc/decision', payload: { status: 'APPROVED' } },
    ] as const
    for (const request of calls) {
      expectProblem(await app.inject({ ...request, headers: withKey }), 403, 'SESSION_REQUIRED')
    }
    expect((await status(token)).status).toBe('UNVERIFIED')
  })

  it('generate_token: at most TOKENS_PER_MINUTE a minute per person, then 429', async () => {
    const token = await unverified()
    for (let i = 0; i < TOKENS_PER_MINUTE; i++) {
      expect((await generateToken(token)).statusCode).toBe(200)
    }
    const refused = expectProblem(await generateToken(token), 429, 'RATE_LIMITED')
    expect(refused.retry_after).toBeGreaterThan(0)
    // Someone else is not held back by it.
    expect((await generateToken(await unverified())).statusCode).toBe(200)
  })

  it('the API document offers no developer key on the KYC routes', async () => {
    const document = (await app.inject({ method: 'GET', url: '/api/openapi.json' })).json()
    expect(document.paths['/api/v1/kyc/status'].get.security).toEqual([{ raw: [] }])
    expect(document.paths['/api/v1/kyc/sumsub/generate_token'].post.security).toEqual([{ raw: [] }])
    expect(document.paths['/api/v1/kyc/sandbox/applicant'].post.security).toEqual([{ raw: [] }])
  })

  it('without the Sumsub provider there is no webhook route', async () => {
    const response = await app.inject({
      method: 'POST',
      url: '/api/v1/kyc/sumsub/webhook',
      headers: { 'content-type': 'application/json' },
      payload: { type: 'applicantReviewed' },
    })
    expect(response.statusCode).toBe(404)
  })
})

describeServer('identity verification in production mode without a provider', () => {
  let app: FastifyInstance
  beforeAll(async () => {
    // SANDBOX=false and no KYC_PROVIDER: the sandbox provider stands in, deciding nothing.
    app = await createTestApp({ SANDBOX: 'false', SANDBOX_KYC_MS: String(DECISION_MS) })
  })
  afterAll(() => app?.close())

  it('takes no sandbox submission, queues no review, and approves no one', async () => {
    const pair = await signUp(app, { kyc: false })
    const v1 = headers({ authorization: pair.access_token })
    expectProblem(
      await app.inject({
        method: 'POST',
        url: '/api/v1/kyc/sandbox/applicant',
        headers: v1,
        payload: applicant,
      }),
      409,
      'KYC_PROVIDER_MISMATCH',
    )
    expectProblem(
      await app.inject({ method: 'POST', url: '/api/v1/kyc/sumsub/generate_token', headers: v1 }),
      409,
      'KYC_PROVIDER_MISMATCH',
    )
    await app.jobs.runDue({ now: new Date(Date.now() + 10 * DECISION_MS) })
    const reply = await app.inject({ method: 'GET', url: '/api/v1/kyc/status', headers: v1 })
    expect(reply.json<KycStatusReply>()).toMatchObject({ status: 'UNVERIFIED', history: [] })
    const queued = await app.db
      .selectFrom('jobs')
      .select('id')
      .where('kind', '=', 'kyc.sandbox_review')
      .execute()
    expect(queued).toEqual([])
    // Nor is there an operator to decide in production.
    const decision = await app.inject({
      method: 'POST',
      url: '/api/sandbox/kyc/decision',
      headers: v1,
      payload: { status: 'APPROVED' },
    })
    expect(decision.statusCode).toBe(404)
  })
})
