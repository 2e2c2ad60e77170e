import { randomBytes, randomUUID } from 'node:crypto'
import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, expect, it } from 'vitest'
import type { TokenPair } from '../../../contract/auth.ts'
import { DEMO_TENANT_ID } from '../../../contract/tenancy.ts'
import {
  bearer,
  createTenant,
  createTestApp,
  describeServer,
  expectProblem,
  getUser,
  headers,
  refresh,
  signUp,
} from '../../test-support.ts'
import { type AccessClaims, Tokens } from './tokens.ts'

/** A protected v1 route that answers who the token says the caller is. */
const whoami = async (scope: FastifyInstance) => {
  scope.get('/whoami', async (request) => request.auth)
}

function claimsOf(accessToken: string): AccessClaims {
  const payload = JSON.parse(Buffer.from(accessToken.split('.')[1]!, 'base64url').toString())
  return { userId: payload.sub, tenantId: payload.tid, sessionId: payload.sid }
}

describeServer('access tokens on the two API bases', () => {
  let app: FastifyInstance
  let pair: TokenPair
  beforeAll(async () => {
    app = await createTestApp(
      {},
      {
        extraRoutes: { v1: [whoami] },
        extraPolicies: { 'GET /api/v1/whoami': { access: 'person', key: 'read' } },
      },
    )
    pair = await signUp(app)
  })
  afterAll(() => app?.close())

  const v1 = (authorization?: string) =>
    app.inject({
      method: 'GET',
      url: '/api/v1/whoami',
      headers: headers(authorization === undefined ? {} : { authorization }),
    })
  const v2 = (authorization?: string) =>
    app.inject({
      method: 'GET',
      url: '/api/v2/user',
      headers: headers(authorization === undefined ? {} : { authorization }),
    })

  it('v2 accepts "Bearer <token>", whatever the case of the scheme', async () => {
    expect((await v2(`Bearer ${pair.access_token}`)).statusCode).toBe(200)
    expect((await v2(`bearer ${pair.access_token}`)).statusCode).toBe(200)
  })

  it('v2 refuses the raw token with 401 and a Bearer challenge', async () => {
    const response = await v2(pair.access_token)

    expectProblem(response, 401, 'UNAUTHORIZED')
    expect(response.headers['www-authenticate']).toBe('Bearer')
  })

  it('v2 without Authorization answers 401', async () => {
    expectProblem(await v2(), 401, 'UNAUTHORIZED')
    expectProblem(await v2('Bearer '), 401, 'UNAUTHORIZED')
    expectProblem(await v2(`Bearer ${pair.access_token} extra`), 401, 'UNAUTHORIZED')
  })

  it('v1 takes the raw token and knows the caller from it', async () => {
    const response = await v1(pair.access_token)

    expect(response.statusCode).toBe(200)
    expect(response.json()).toEqual(claimsOf(pair.access_token))
    expect(response.json()).toMatchObject({ tenantId: DEMO_TENANT_ID })
  })

  it('v1 refuses a "Bearer" authorization, even with a valid token', async () => {
    expectProblem(await v1('Bearer x'), 401, 'UNAUTHORIZED')
    expectProblem(await v1(`Bearer ${pair.access_token}`), 401, 'UNAUTHORIZED')
  })

  it('v1 without Authorization answers 401', async () => {
    expectProblem(await v1(), 401, 'UNAUTHORIZED')
    expectProblem(await v1('   '), 401, 'UNAUTHORIZED')
  })

  it('an access token is refused in any tenant but its own', async () => {
    const tenant = await createTenant(app)
    const theirs = await signUp(app, { headers: headers({ 'x-tenant-id': tenant }) })
    const inTenant = (tenantId: string, token: string) =>
      app.inject({
        method: 'GET',
        url: '/api/v2/user',
        headers: headers({ 'x-tenant-id': tenantId, ...bearer(token) }),
      })

    expect((await inTenant(tenant, theirs.access_token)).statusCode).toBe(200)
    expectProblem(await inTenant(DEMO_TENANT_ID, theirs.access_token), 401, 'UNAUTHORIZED')
    expectProblem(await inTenant(tenant, pair.access_token), 401, 'UNAUTHORIZED')
  })

  it('a token signed with another key is refused', async () => {
    const forger = new Tokens({ jwtKey: randomBytes(32), refreshKey: randomBytes(32) }, 900)
    const forged = await forger.issueAccess(claimsOf(pair.access_token))

    expectProblem(await getUser(app, forged), 401, 'UNAUTHORIZED')
    expectProblem(await v1(forged), 401, 'UNAUTHORIZED')
  })

  it('an unsigned token (alg "none") is refused', async () => {
    const [, payload] = pair.access_token.split('.')
    const header = Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url')

    expectProblem(await getUser(app, `${header}.${payload}.`), 401, 'UNAUTHORIZED')
  })

  it('a token whose claims were edited is refused', async () => {
    const [header, payload, signature] = pair.access_token.split('.')
    const claims = JSON.parse(Buffer.from(payload!, 'base64url').toString())
    const edited = Buffer.from(JSON.stringify({ ...claims, sub: randomUUID() })).toString(
      'base64url',
    )

    expectProblem(await getUser(app, `${header}.${edited}.${signature}`), 401, 'UNAUTHORIZED')
  })

  it('a well-signed token for a session that does not exist is refused', async () => {
    const token = await app.tokens.issueAccess({
      ...claimsOf(pair.access_token),
      sessionId: randomUUID(),
    })

    const problem = expectProblem(await getUser(app, token), 401, 'UNAUTHORIZED')
    expect(problem.detail).toMatch(/session has ended/)
  })
})

describeServer('access token expiry (a one-second lifetime)', () => {
  let app: FastifyInstance
  beforeAll(async () => {
    app = await createTestApp({ ACCESS_TOKEN_TTL: '1' })
  })
  afterAll(() => app?.close())

  it('an expired access token answers 401, while its session lives on', async () => {
    // No identity decision: with one-second tokens, a slow machine could outlast the token
    // between the sign-up and the sandbox's KYC call.
    const pair = await signUp(app, { kyc: false })
    expect(pair.expires_in).toBe(1)

    await new Promise((resolve) => setTimeout(resolve, 2_100))

    const problem = expectProblem(await getUser(app, pair.access_token), 401, 'UNAUTHORIZED')
    expect(problem.detail).toMatch(/expired/)
    // A 401 the app answers by refreshing: the refresh token still works.
    expect((await refresh(app, pair.refresh_token)).statusCode).toBe(200)
  })
})
