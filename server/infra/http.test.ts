import { randomUUID } from 'node:crypto'
import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, expect, it } from 'vitest'
import {
  bearer,
  captureLogs,
  createTestApp,
  describeServer,
  expectProblem,
  headers,
  signUp,
} from '../test-support.ts'

const INTERNAL_MESSAGE = 'connection to 10.0.0.7 refused for user ledger_admin'

describeServer('HTTP behaviour shared by every route', () => {
  let app: FastifyInstance
  const logs = captureLogs()
  beforeAll(async () => {
    // A route with a bug in it: what a 500 looks like from outside.
    const broken = async (scope: FastifyInstance) => {
      scope.get('/test/broken', { schema: { hide: true } }, async () => {
        throw new Error(INTERNAL_MESSAGE)
      })
    }
    app = await createTestApp(
      {},
      {
        logStream: logs.stream,
        extraRoutes: { v2: [broken] },
        extraPolicies: { 'GET /api/v2/test/broken': { access: 'public' } },
      },
    )
  })
  afterAll(() => app?.close())

  const post = (url: string, payload: string, contentType = 'application/json') =>
    app.inject({
      method: 'POST',
      url,
      headers: headers({ 'content-type': contentType }),
      payload,
    })

  it('a malformed JSON body answers 400 MALFORMED_JSON', async () => {
    const response = await post('/api/v2/auth/sign-in/password/email', '{"email": "a@b.c",')

    expectProblem(response, 400, 'MALFORMED_JSON')
  })

  it('a GET with a JSON content type and an empty body is fine', async () => {
    const pair = await signUp(app)

    const response = await app.inject({
      method: 'GET',
      url: '/api/v2/user',
      headers: headers(bearer(pair.access_token)),
      payload: '',
    })

    expect(response.statusCode).toBe(200)
  })

  it('an empty JSON body where one is required fails validation (422), not parsing', async () => {
    const problem = expectProblem(
      await post('/api/v2/auth/sign-out', '   '),
      422,
      'VALIDATION_FAILED',
    )

    expect(problem.errors).toEqual([{ field: '/body', message: expect.any(String) }])
  })

  it('an unknown field in a body is named in the 422', async () => {
    const response = await post(
      '/api/v2/auth/sign-in/password/email',
      JSON.stringify({ email: 'ada@example.com', password: 'x', admin: true }),
    )

    const problem = expectProblem(response, 422, 'VALIDATION_FAILED')
    expect(problem.errors).toContainEqual({
      field: '/body/admin',
      message: 'unknown field "admin"',
    })
  })

  it('every missing field is listed, not just the first', async () => {
    const problem = expectProblem(
      await post('/api/v2/auth/sign-in/password/email', '{}'),
      422,
      'VALIDATION_FAILED',
    )

    expect(problem.errors?.map((error) => error.field).sort()).toEqual([
      '/body/email',
      '/body/password',
    ])
  })

  it('a NUL character anywhere in a request is a 422 naming the field, never a 500 from the database', async () => {
    const pair = await signUp(app)
    const raw = headers({ authorization: pair.access_token })
    const v2 = headers(bearer(pair.access_token))
    const someone = randomUUID()
    const cases = [
      {
        request: {
          method: 'POST' as const,
          url: '/api/v1/orders/WITHDRAWAL_FIAT_SEPA',
          headers: raw,
          payload: { quote_id: randomUUID(), note: 'rent\u0000' },
        },
        field: '/body/note',
      },
      {
        request: {
          method: 'POST' as const,
          url: '/api/v1/orders/WITHDRAWAL_FIAT_SEPA',
          headers: raw,
          payload: { quote_id: randomUUID(), request_id: 'a\u0000b' },
        },
        field: '/body/request_id',
      },
      {
        request: {
          method: 'GET' as const,
          url: `/api/v2/counterparties/${someone}?search=a%00b`,
          headers: v2,
        },
        field: '/querystring/search',
      },
      {
        request: {
          method: 'POST' as const,
          url: `/api/v2/counterparties/${someone}`,
          headers: v2,
          payload: {
            type: 'BUSINESS',
            legal_name: 'Acme GmbH',
            country: 'DE',
            address: {
              country: 'DE',
              city: 'Berlin',
              line1: 'Hauptstr.\u0000 1',
              postal_code: '10115',
            },
          },
        },
        field: '/body/address/line1',
      },
      {
        request: { method: 'POST' as const, url: '/api/v1/orders/a%00b/cancel', headers: raw },
        field: '/params/id',
      },
      {
        // No token on this one: the check comes before any route's own.
        request: {
          method: 'POST' as const,
          url: '/api/sandbox/bank-transfers',
          headers: headers(),
          payload: {
            reference: 'FP-0000-0000',
            amount: '1.00',
            currency: 'EUR',
            sender_name: '\u0000',
          },
        },
        field: '/body/sender_name',
      },
    ]
    for (const { request, field } of cases) {
      const problem = expectProblem(await app.inject(request), 422, 'VALIDATION_FAILED')
      expect(problem.errors, request.url).toEqual([
        { field, message: 'must not contain the NUL character (U+0000)' },
      ])
    }
  })

  it('a body over 1 MiB answers 413 as a problem', async () => {
    const huge = JSON.stringify({ email: 'a@b.co', password: 'x'.repeat(1024 * 1024) })

    const response = await post('/api/v2/auth/sign-in/password/email', huge)

    expect(response.statusCode).toBe(413)
    expect(response.headers['content-type']).toMatch(/^application\/problem\+json/)
  })

  it('a body of an unsupported media type answers 415 as a problem', async () => {
    const response = await post(
      '/api/v2/auth/sign-in/password/email',
      '<email/>',
      'application/xml',
    )

    expect(response.statusCode).toBe(415)
    expect(response.headers['content-type']).toMatch(/^application\/problem\+json/)
  })

  it('an unknown route answers 404 problem+json naming the path without its query', async () => {
    const response = await app.inject({
      method: 'GET',
      url: '/api/v2/no-such-thing?token=abc',
      headers: headers(),
    })

    const problem = expectProblem(response, 404, 'NOT_FOUND')
    expect(problem.detail).toBe('No route for GET /api/v2/no-such-thing')
  })

  it('a bug answers 500 INTERNAL with nothing of the internals, and is logged', async () => {
    const response = await app.inject({
      method: 'GET',
      url: '/api/v2/test/broken',
      headers: headers(),
    })

    const problem = expectProblem(response, 500, 'INTERNAL')
    expect(Object.keys(problem).sort()).toEqual(['code', 'detail', 'status', 'title', 'type'])
    expect(response.body).not.toContain(INTERNAL_MESSAGE)
    expect(response.body).not.toMatch(/stack|\bat .*:\d+:\d+/)
    const logged = logs.lines.filter((line) => line.includes(INTERNAL_MESSAGE))
    expect(logged).toHaveLength(1)
    expect(JSON.parse(logged[0]!)).toMatchObject({ level: 50, msg: 'unhandled error' })
  })

  it('a page carries a CSP that allows only our own scripts; any other answer one that allows nothing', async () => {
    const page = await app.inject({ method: 'GET', url: '/api/docs/', headers: headers() })
    expect(page.headers['content-type']).toMatch(/^text\/html/)
    const csp = String(page.headers['content-security-policy'])
    expect(csp).toMatch(/(^|;)\s*script-src 'self'(;|$)/)
    expect(csp).toMatch(/(^|;)\s*object-src 'none'(;|$)/)
    // The sandbox verification screen is ours: no third party may be framed.
    expect(csp).toMatch(/(^|;)\s*frame-src 'self'(;|$)/)
    expect(csp).not.toContain('unsafe-eval')

    // An API answer opened as a page runs nothing, loads nothing and is framed by no one.
    for (const url of ['/healthz', '/api/v2/no-such-thing', '/api/openapi.json']) {
      const response = await app.inject({ method: 'GET', url, headers: headers() })
      expect(response.headers['content-security-policy'], url).toBe(
        "default-src 'none'; frame-ancestors 'none'",
      )
      expect(response.headers['x-content-type-options'], url).toBe('nosniff')
      expect(response.headers['cross-origin-resource-policy'], url).toBe('same-origin')
    }
  })

  it('/api/openapi.json is an OpenAPI 3.1 document of the v2 routes', async () => {
    const response = await app.inject({ method: 'GET', url: '/api/openapi.json' })

    expect(response.statusCode).toBe(200)
    const document = response.json()
    expect(document.openapi).toMatch(/^3\.1\./)
    expect(document.paths['/api/v2/auth/sign-in/password/email']).toHaveProperty('post')
    expect(document.paths['/api/v2/auth/refresh/refresh-token']).toHaveProperty('post')
    expect(document.paths['/api/v2/user']).toHaveProperty('get')
    // Hidden routes (probes, test routes) stay out of the contract.
    expect(Object.keys(document.paths)).not.toContain('/healthz')
    expect(Object.keys(document.paths)).not.toContain('/api/v2/test/broken')
  })

  it('documents the developer key wherever it works, and not where a person must sign in', async () => {
    const document = (await app.inject({ method: 'GET', url: '/api/openapi.json' })).json()
    expect(document.components.securitySchemes.apiKey).toEqual({
      type: 'apiKey',
      in: 'header',
      name: 'x-api-key',
    })
    expect(document.paths['/api/v2/user'].get.security).toEqual([{ bearer: [] }, { apiKey: [] }])
    expect(document.paths['/api/v1/developer/access/create'].post.security).toEqual([{ raw: [] }])
  })
})
