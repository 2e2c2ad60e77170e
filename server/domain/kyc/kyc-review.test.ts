import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, expect, it } from 'vitest'
import type { KycStatusReply } from '../../../contract/kyc.ts'
import {
  bearer,
  createTestApp,
  decideKyc,
  describeServer,
  expectProblem,
  headers,
  signUp,
} from '../../test-support.ts'
import { TenantService } from '../tenants/service.ts'
import { applicant, DECISION_MS, kycCalls } from './kyc-test-support.ts'

describeServer('identity verification (sandbox provider): submitted, reviewed, decided', () => {
  let app: FastifyInstance
  beforeAll(async () => {
    app = await createTestApp({ SANDBOX_KYC_MS: String(DECISION_MS) })
  })
  afterAll(() => app?.close())

  const { status, submit, after, unverified, userData, userId } = kycCalls(() => app)

  it('a new person is UNVERIFIED, may start, and has no history', async () => {
    expect(await status(await unverified())).toEqual({
      status: 'UNVERIFIED',
      can_retry: true,
      provider: 'sandbox',
      history: [],
    })
  })

  it('a submission is PENDING, then APPROVED by the rules after SANDBOX_KYC_MS', async () => {
    const token = await unverified()
    const before = Date.now()
    const submitted = await submit(token)
    expect(submitted.statusCode, submitted.body).toBe(201)
    expect(submitted.json<KycStatusReply>()).toMatchObject({ status: 'PENDING', can_retry: false })

    // Due at submission + DECISION_MS ≥ before + DECISION_MS: one ms earlier is never due,
    // however long the submission took.
    await app.jobs.runDue({ now: new Date(before + DECISION_MS - 1) })
    expect((await status(token)).status).toBe('PENDING')
    await after(DECISION_MS + 1_000)
    const decided = await status(token)
    expect(decided.status).toBe('APPROVED')
    expect(decided.history.map((entry) => entry.status)).toEqual(['APPROVED', 'PENDING'])
    expect(decided.history[0]!.reason).toBeUndefined()
    // The job ran once: running again decides nothing more.
    await after(DECISION_MS * 2)
    expect((await status(token)).history).toHaveLength(2)
  })

  it('an approval gives the profile the verified name when it has none', async () => {
    const token = await unverified()
    expect(await userData(token)).toMatchObject({ first_name: null, last_name: null })
    await submit(token, { ...applicant, first_name: ' Anna ', last_name: 'Novak' })
    expect(await userData(token)).toMatchObject({ first_name: null, last_name: null })
    await after(DECISION_MS + 1_000)
    expect(await userData(token)).toMatchObject({ first_name: 'Anna', last_name: 'Novak' })
  })

  it('an approval keeps a name the person gave themselves, and fills only the one missing', async () => {
    const token = await unverified()
    const named = await app.inject({
      method: 'PATCH',
      url: '/api/v2/user/user-data',
      headers: headers(bearer(token)),
      payload: { first_name: 'Annie' },
    })
    expect(named.statusCode, named.body).toBe(200)
    await submit(token, { ...applicant, first_name: 'Anna', last_name: 'Novak' })
    await decideKyc(app, token, 'APPROVED')
    expect(await userData(token)).toMatchObject({ first_name: 'Annie', last_name: 'Novak' })
  })

  it('a country the tenant does not serve is refused on the field, and nothing is submitted', async () => {
    const tenants = new TenantService(app.db)
    const tenantId = (await tenants.create({ name: 'UK Only', supported_countries: ['GB'] })).id
    const own = headers({ 'x-tenant-id': tenantId })
    const token = (await signUp(app, { kyc: false, headers: own })).access_token
    const refused = await app.inject({
      method: 'POST',
      url: '/api/v1/kyc/sandbox/applicant',
      headers: headers({ 'x-tenant-id': tenantId, authorization: token }),
      payload: { ...applicant, country: 'FR' },
    })
    const problem = expectProblem(refused, 422, 'COUNTRY_NOT_SUPPORTED')
    expect(problem.errors).toEqual([{ field: '/body/country', message: 'One of: GB.' }])
    const accepted = await app.inject({
      method: 'POST',
      url: '/api/v1/kyc/sandbox/applicant',
      headers: headers({ 'x-tenant-id': tenantId, authorization: token }),
      payload: applicant,
    })
    expect(accepted.statusCode, accepted.body).toBe(201)
  })

  it('a name containing "reject" is DECLINED with a reason; the person may submit again', async () => {
    const token = await unverified()
    expect((await submit(token, { ...applicant, last_name: 'Rejectson' })).statusCode).toBe(201)
    await after(DECISION_MS + 1_000)
    const declined = await status(token)
    expect(declined).toMatchObject({ status: 'DECLINED', can_retry: true })
    expect(declined.history[0]).toMatchObject({ status: 'DECLINED', reason: expect.any(String) })

    expect((await submit(token)).statusCode).toBe(201)
    await after(DECISION_MS + 1_000)
    expect((await status(token)).history.map((entry) => entry.status)).toEqual([
      'APPROVED',
      'PENDING',
      'DECLINED',
      'PENDING',
    ])
  })

  it('the operator’s decision comes before the rules, which then leave it alone', async () => {
    const token = await unverified()
    await submit(token, { ...applicant, first_name: 'Reject' })
    await decideKyc(app, token, 'HOLD')
    await after(DECISION_MS + 1_000)
    expect((await status(token)).status).toBe('HOLD')
    expect((await decideKyc(app, token, 'APPROVED')).status).toBe('APPROVED')
    const row = await app.db
      .selectFrom('kyc_verifications')
      .select(['status', 'decided_at'])
      .where('user_id', '=', (await userId(token)) as string)
      .executeTakeFirstOrThrow()
    expect(row.status).toBe('APPROVED')
    expect(row.decided_at).toBeInstanceOf(Date)
  })

  it.each([
    ['PENDING', 409, 'KYC_IN_REVIEW'],
    ['HOLD', 409, 'KYC_IN_REVIEW'],
    ['APPROVED', 409, 'KYC_ALREADY_APPROVED'],
    ['REJECT', 409, 'KYC_FINAL'],
    ['DOUBLE', 409, 'KYC_FINAL'],
    ['SOFT_REJECT', 201, undefined],
    ['DECLINED', 201, undefined],
  ] as const)('a new submission while %s: %i %s', async (current, code, problem) => {
    const token = await unverified()
    const decided = await decideKyc(app, token, current)
    expect(decided.can_retry).toBe(code === 201)
    const response = await submit(token)
    if (problem) {
      expect(expectProblem(response, code, problem).kyc_status).toBe(current)
      expect((await status(token)).status).toBe(current)
    } else {
      expect(response.statusCode, response.body).toBe(201)
      expect((await status(token)).status).toBe('PENDING')
    }
  })

  it('the history keeps every status with its reason, newest first', async () => {
    const token = await unverified()
    await submit(token)
    await app.inject({
      method: 'POST',
      url: '/api/sandbox/kyc/decision',
      headers: headers(bearer(token)),
      payload: { status: 'SOFT_REJECT', reason: 'The photo is blurred' },
    })
    await submit(token)
    await decideKyc(app, token, 'REJECT')
    // The same status again is no new entry.
    await decideKyc(app, token, 'REJECT')
    const reply = await status(token)
    expect(reply).toMatchObject({ status: 'REJECT', can_retry: false })
    expect(reply.history.map(({ status, reason }) => ({ status, reason }))).toEqual([
      { status: 'REJECT', reason: undefined },
      { status: 'PENDING', reason: undefined },
      { status: 'SOFT_REJECT', reason: 'The photo is blurred' },
      { status: 'PENDING', reason: undefined },
    ])
    const times = reply.history.map((entry) => Date.parse(entry.at))
    expect([...times].sort((a, b) => b - a)).toEqual(times)
  })

  it('the submission is checked: document type, ISO country, names, the selfie step', async () => {
    const token = await unverified()
    for (const [field, value] of [
      ['document_type', 'LIBRARY_CARD'],
      ['country', 'gb'],
      ['first_name', '  '],
      ['selfie', false],
    ] as const) {
      const problem = expectProblem(
        await submit(token, { ...applicant, [field]: value }),
        422,
        'VALIDATION_FAILED',
      )
      expect(problem.errors?.map((error) => error.field)).toContain(`/body/${field}`)
    }
    expect((await status(token)).status).toBe('UNVERIFIED')
  })
})
