import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { DEMO_TENANT_ID } from '../../contract/tenancy.ts'
import {
  bearer,
  createTenant,
  createTestApp,
  DEFAULT_PASSWORD,
  describeServer,
  expectProblem,
  getUser,
  headers,
  signUp,
  uniqueEmail,
} from '../test-support.ts'

describeServer('every API call names its tenant and app environment', () => {
  let app: FastifyInstance
  beforeAll(async () => {
    // A v1 route too: both bases check the tenant before anything else.
    const whoami = async (scope: FastifyInstance) => {
      scope.get('/whoami', async (request) => request.auth)
    }
    app = await createTestApp(
      {},
      {
        extraRoutes: { v1: [whoami] },
        extraPolicies: { 'GET /api/v1/whoami': { access: 'person', key: 'read' } },
      },
    )
  })
  afterAll(() => app?.close())

  const signUpWith = (extra: Record<string, string>, without: string[] = []) => {
    const sent = headers(extra)
    for (const name of without) delete sent[name]
    return app.inject({
      method: 'POST',
      url: '/api/v2/auth/sign-up/password/email',
      headers: sent,
      payload: { email: uniqueEmail(), password: DEFAULT_PASSWORD },
    })
  }

  it('a call without X-Tenant-Id answers 400 TENANT_REQUIRED', async () => {
    expectProblem(await signUpWith({}, ['x-tenant-id']), 400, 'TENANT_REQUIRED')
  })

  it('an empty X-Tenant-Id answers 400 TENANT_REQUIRED', async () => {
    expectProblem(await signUpWith({ 'x-tenant-id': '' }), 400, 'TENANT_REQUIRED')
  })

  it('an X-Tenant-Id that is not a UUID answers 400 TENANT_INVALID', async () => {
    for (const value of ['demo', `${DEMO_TENANT_ID}0`, "2b7c6f0e' or '1'='1"]) {
      expectProblem(await signUpWith({ 'x-tenant-id': value }), 400, 'TENANT_INVALID')
    }
  })

  it('a well-formed but unknown tenant answers 404 TENANT_NOT_FOUND', async () => {
    expectProblem(
      await signUpWith({ 'x-tenant-id': '00000000-0000-4000-8000-000000000000' }),
      404,
      'TENANT_NOT_FOUND',
    )
  })

  it('a missing X-App-Env answers 400 APP_ENV_INVALID', async () => {
    expectProblem(await signUpWith({}, ['x-app-env']), 400, 'APP_ENV_INVALID')
  })

  it('an X-App-Env other than web or telegram answers 400 APP_ENV_INVALID', async () => {
    for (const value of ['ios', 'WEB', '']) {
      expectProblem(await signUpWith({ 'x-app-env': value }), 400, 'APP_ENV_INVALID')
    }
  })

  it('the Telegram mini app is a known environment', async () => {
    expect((await signUpWith({ 'x-app-env': 'telegram' })).statusCode).toBe(201)
  })

  it('the tenant id is case-insensitive, and tokens carry it in one form', async () => {
    const response = await signUpWith({ 'x-tenant-id': DEMO_TENANT_ID.toUpperCase() })

    expect(response.statusCode).toBe(201)
    expect((await getUser(app, response.json().access_token)).statusCode).toBe(200)
  })

  it('a second tenant is served on its own', async () => {
    const tenant = await createTenant(app)

    expect((await signUpWith({ 'x-tenant-id': tenant })).statusCode).toBe(201)
  })

  it('the tenant is checked before the credentials', async () => {
    const response = await app.inject({
      method: 'GET',
      url: '/api/v2/user',
      headers: headers({ 'x-tenant-id': 'nope' }),
    })

    expectProblem(response, 400, 'TENANT_INVALID')
  })

  it('v1 calls name their tenant too', async () => {
    const pair = await signUp(app)
    const v1 = (extra: Record<string, string>) =>
      app.inject({
        method: 'GET',
        url: '/api/v1/whoami',
        headers: headers({ authorization: pair.access_token, ...extra }),
      })

    expect((await v1({})).statusCode).toBe(200)
    expectProblem(await v1({ 'x-tenant-id': '' }), 400, 'TENANT_REQUIRED')
    expectProblem(await v1({ 'x-app-env': 'desktop' }), 400, 'APP_ENV_INVALID')
  })

  it('/healthz, /metrics and the OpenAPI document need no tenant', async () => {
    const health = await app.inject({ method: 'GET', url: '/healthz' })
    expect(health.statusCode).toBe(200)
    expect(health.json()).toEqual({ status: 'ok' })
    expect((await app.inject({ method: 'GET', url: '/metrics' })).statusCode).toBe(200)
    expect((await app.inject({ method: 'GET', url: '/api/openapi.json' })).statusCode).toBe(200)
  })

  it('a user of one tenant is not known in another', async () => {
    const tenant = await createTenant(app)
    const email = uniqueEmail()
    await signUp(app, { email })

    const elsewhere = await app.inject({
      method: 'POST',
      url: '/api/v2/auth/sign-in/password/email',
      headers: headers({ 'x-tenant-id': tenant }),
      payload: { email, password: DEFAULT_PASSWORD },
    })

    expectProblem(elsewhere, 400, 'INVALID_CREDENTIALS')
    // …and the same address can open a separate account there.
    const there = await signUp(app, { email, headers: headers({ 'x-tenant-id': tenant }) })
    expect(
      (
        await app.inject({
          method: 'GET',
          url: '/api/v2/user',
          headers: headers({ 'x-tenant-id': tenant, ...bearer(there.access_token) }),
        })
      ).json(),
    ).toMatchObject({ email })
  })
})
