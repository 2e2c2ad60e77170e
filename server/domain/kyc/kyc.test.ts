import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { KYC_STATUSES, type KycStatus } from '../../../contract/enums.ts'
import type { KycStatusReply, KycToken } from '../../../contract/kyc.ts'
import type { Order } from '../../../contract/orders.ts'
import { DEMO_TENANT_ID } from '../../../contract/tenancy.ts'
import type { Config } from '../../config.ts'
import {
  bearer,
  createFiatAccount,
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
import { defaultProgramId } from '../issuing/default-programs.ts'
import {
  balances,
  CUR,
  externalAddress,
  fund,
  getOrder,
  type OrderUser,
  orderUser,
  place,
  quote,
} from '../orders/order-fixtures.ts'
import { TenantService } from '../tenants/service.ts'
import { TOKENS_PER_MINUTE } from './routes.ts'

const DECISION_MS = 3_000

const applicant = {
  first_name: 'Ada',
  last_name: 'Lovelace',
  document_type: 'PASSPORT',
  country: 'GB',
  selfie: true,
}

describeServer('identity verification (sandbox provider)', () => {
  let app: FastifyInstance
  beforeAll(async () => {
    app = await createTestApp({ SANDBOX_KYC_MS: String(DECISION_MS) })
  })
  afterAll(() => app?.close())

  const v1 = (token: string) => headers({ authorization: token })
  const status = async (token: string) => {
    const response = await app.inject({
      method: 'GET',
      url: '/api/v1/kyc/status',
      headers: v1(token),
    })
    expect(response.statusCode, response.body).toBe(200)
    return response.json<KycStatusReply>()
  }
  const submit = (token: string, body: Record<string, unknown> = applicant) =>
    app.inject({
      method: 'POST',
      url: '/api/v1/kyc/sandbox/applicant',
      headers: v1(token),
      payload: body,
    })
  const generateToken = (token: string) =>
    app.inject({ method: 'POST', url: '/api/v1/kyc/sumsub/generate_token', headers: v1(token) })
  /** Runs the sandbox's review job as if `ms` had passed since now. */
  const after = (ms: number) => app.jobs.runDue({ now: new Date(Date.now() + ms) })
  const unverified = async () => (await signUp(app, { kyc: false })).access_token

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

  const userData = async (token: string) => {
    const response = await app.inject({
      method: 'GET',
      url: '/api/v2/user/user-data',
      headers: headers(bearer(token)),
    })
    expect(response.statusCode, response.body).toBe(200)
    return response.json<{ first_name: string | null; last_name: string | null }>()
  }

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

  const userId = async (token: string) => {
    const response = await app.inject({
      method: 'GET',
      url: '/api/v2/user',
      headers: headers(bearer(token)),
    })
    return response.json<{ id: string }>().id
  }
})

describeServer('the KYC gate on orders and card issuing', () => {
  let app: FastifyInstance
  beforeAll(async () => {
    app = await createTestApp()
  })
  afterAll(() => app?.close())

  /** A person whose verification is `status`, with a funded wallet. */
  const personIn = async (status: KycStatus) => {
    const user = await orderUser(app)
    if (status !== 'APPROVED') await decideKyc(app, user.token, status)
    await fund(app.db, user.walletId, CUR.USDT_TRON, '500')
    await fund(app.db, user.walletId, CUR.EUR, '100.00')
    return user
  }
  const issue = (user: OrderUser, path: string, body: Record<string, unknown>) =>
    app.inject({
      method: 'POST',
      url: `/api/v1/issuing/cards/${path}`,
      headers: headers({ authorization: user.token }),
      payload: { form_factor: 'VIRTUAL', ...body },
    })

  it.each(KYC_STATUSES)('%s: cards are issued only when APPROVED', async (status) => {
    const user = await personIn(status)
    const account = await createFiatAccount(
      app,
      user.token,
      user.walletId,
      defaultProgramId(DEMO_TENANT_ID, 'eur-prepaid'),
    )
    const answers = [
      await issue(user, 'create', {
        wallet_uuid: user.walletId,
        program_id: defaultProgramId(DEMO_TENANT_ID, 'eur-prepaid'),
      }),
      await issue(user, 'balance', { fiat_account_id: account.id }),
    ]
    for (const response of answers) {
      if (status === 'APPROVED') expect(response.statusCode, response.body).toBe(201)
      else expect(expectProblem(response, 403, 'KYC_REQUIRED').kyc_status).toBe(status)
    }
    const cards = await app.db
      .selectFrom('cards')
      .select('id')
      .where('wallet_id', '=', user.walletId)
      .execute()
    expect(cards).toHaveLength(status === 'APPROVED' ? 2 : 0)
  })

  it.each(KYC_STATUSES)('%s: withdrawals and fiat deposits only when APPROVED', async (status) => {
    const user = await personIn(status)
    const withdrawal = await quote(app, user, {
      order_type: 'WITHDRAWAL_CRYPTO',
      from_uuid: CUR.USDT_TRON,
      address: externalAddress('tron'),
      amount_from: '50',
    })
    const deposit = await quote(app, user, {
      order_type: 'DEPOSIT_FIAT_SEPA',
      from_uuid: CUR.EUR,
      amount_from: '100.00',
    })
    // An exchange stays inside the platform: no identity check.
    const exchange = await quote(app, user, {
      order_type: 'EXCHANGE_CRYPTO_INTERNAL',
      from_uuid: CUR.USDT_TRON,
      to_uuid: CUR.EUR,
      amount_from: '50',
    })
    for (const q of [withdrawal, deposit]) {
      const response = await place(app, user, q.order_type, { quote_id: q.quote_id })
      if (status === 'APPROVED') expect(response.statusCode, response.body).toBe(201)
      else expect(expectProblem(response, 403, 'KYC_REQUIRED').kyc_status).toBe(status)
    }
    const exchanged = await place(app, user, exchange.order_type, { quote_id: exchange.quote_id })
    expect(exchanged.statusCode, exchanged.body).toBe(201)
  })

  it('a refused withdrawal holds nothing, and goes through once the person is verified', async () => {
    const user = await personIn('PENDING')
    const q = await quote(app, user, {
      order_type: 'WITHDRAWAL_CRYPTO',
      from_uuid: CUR.USDT_TRON,
      address: externalAddress('tron'),
      amount_from: '50',
    })
    expectProblem(
      await place(app, user, q.order_type, { quote_id: q.quote_id }),
      403,
      'KYC_REQUIRED',
    )
    const orders = await app.db
      .selectFrom('orders')
      .select('id')
      .where('quote_id', '=', q.quote_id)
      .execute()
    expect(orders).toEqual([])
    await decideKyc(app, user.token, 'APPROVED')
    const placed = await place(app, user, q.order_type, { quote_id: q.quote_id })
    expect(placed.statusCode, placed.body).toBe(201)
  })

  it.each(['REJECT', 'HOLD', 'UNVERIFIED'] as const)(
    'a withdrawal placed while APPROVED does not leave after a move to %s: FAILED, released',
    async (later) => {
      const user = await personIn('APPROVED')
      const q = await quote(app, user, {
        order_type: 'WITHDRAWAL_CRYPTO',
        from_uuid: CUR.USDT_TRON,
        address: externalAddress('tron'),
        amount_from: '50',
      })
      const response = await place(app, user, q.order_type, { quote_id: q.quote_id })
      expect(response.statusCode, response.body).toBe(201)
      const order = response.json<Order>()
      expect((await balances(app.db, user.walletId, CUR.USDT_TRON)).held).not.toBe('0.000000')
      await decideKyc(app, user.token, later)
      // Every due job, not only the first ten: the file's earlier orders are queued too.
      await app.jobs.runDue({ now: new Date(Date.now() + 1_000), limit: 1_000 })
      const after = await getOrder(app, user, order.id)
      expect(after).toMatchObject({ status: 'FAILED', failure_code: 'KYC_REQUIRED' })
      const row = await app.db
        .selectFrom('orders')
        .select('submitted_at')
        .where('id', '=', order.id)
        .executeTakeFirstOrThrow()
      expect(row.submitted_at).toBeNull()
      expect(await balances(app.db, user.walletId, CUR.USDT_TRON)).toEqual({
        available: '500.000000',
        held: '0.000000',
      })
    },
  )
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
