import { randomUUID } from 'node:crypto'
import { connect } from 'node:net'
import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, expect, it } from 'vitest'
import type { UserData } from '../../contract/user.ts'
import {
  bearer,
  createTestApp,
  createWallet,
  describeServer,
  expectProblem,
  headers,
  signUp,
} from '../test-support.ts'
import { clientErrorHandler } from './errors.ts'

interface Parameter {
  name: string
  in: string
  schema: { type?: string; minimum?: number; maximum?: number }
}
type Operation = { parameters?: Parameter[] }

/** Every GET of the OpenAPI document with its integer query parameters. */
async function integerQueries(app: FastifyInstance) {
  const document = (await app.inject({ method: 'GET', url: '/api/openapi.json' })).json<{
    paths: Record<string, Record<string, Operation>>
  }>()
  return Object.entries(document.paths).flatMap(([path, operations]) => {
    const get = operations.get
    const integers = (get?.parameters ?? []).filter(
      (parameter) => parameter.in === 'query' && parameter.schema.type === 'integer',
    )
    return integers.length > 0 ? [{ path, integers }] : []
  })
}

/** A path of the document with a fresh UUID in every `{parameter}`: valid, unknown. */
const concrete = (path: string) => path.replace(/\{[^}]+\}/g, () => randomUUID())

describeServer('strict input: bounded numbers, uncoerced bodies, problems for every error', () => {
  let app: FastifyInstance
  let token: string
  beforeAll(async () => {
    app = await createTestApp()
    token = (await signUp(app)).access_token
  })
  afterAll(() => app?.close())

  const auth = (path: string) =>
    path.startsWith('/api/v1/') ? { authorization: token } : bearer(token)
  const get = (url: string) => app.inject({ method: 'GET', url, headers: headers(auth(url)) })

  it('every integer query parameter of the API has both bounds', async () => {
    const routes = await integerQueries(app)
    // The lists of both bases, the card-count filters and the sandbox outbox.
    expect(routes.length).toBeGreaterThanOrEqual(12)
    for (const { path, integers } of routes) {
      for (const parameter of integers) {
        expect(parameter.schema.minimum, `${path} ${parameter.name}`).toEqual(expect.any(Number))
        expect(parameter.schema.maximum, `${path} ${parameter.name}`).toEqual(expect.any(Number))
      }
    }
  })

  it('an oversized or oddly spelled integer in any query answers 422 naming the parameter, never 500', async () => {
    const bad = ['1e309', '1e23', '99999999999999999999999', '-1', '0x10', '1e1', ' 5', '+5', '-0']
    bad.push('5.5', 'Infinity', 'NaN', '')
    for (const { path, integers } of await integerQueries(app)) {
      for (const parameter of integers) {
        for (const value of bad) {
          const url = `${concrete(path)}?${parameter.name}=${encodeURIComponent(value)}`
          const problem = expectProblem(await get(url), 422, 'VALIDATION_FAILED')
          expect(
            problem.errors?.map((error) => error.field),
            url,
          ).toContain(`/querystring/${parameter.name}`)
        }
      }
    }
  })

  it('query text converts where it is plainly a number or a boolean', async () => {
    const wallet = await createWallet(app, token)
    const page = await get('/api/v2/wallets?limit=1&offset=0')
    expect(page.statusCode, page.body).toBe(200)
    expect(page.json()).toMatchObject({ limit: 1, offset: 0 })
    const accounts = await get(
      `/api/v2/fiat-accounts/${wallet.uuid}?show_cards=true&lt_cards_limit=2`,
    )
    expect(accounts.statusCode, accounts.body).toBe(200)
    const numeric = await get(`/api/v2/fiat-accounts/${wallet.uuid}?show_cards=1`)
    expectProblem(numeric, 422, 'VALIDATION_FAILED')
  })

  const send = (method: string, url: string, payload: unknown) =>
    app.inject({
      method: method as 'POST',
      url,
      headers: headers(auth(url)),
      payload: payload as object,
    })

  it('a body is never coerced: a wrong type is 422 naming the field, and nothing is stored', async () => {
    const cases: [string, string, unknown, string][] = [
      ['PATCH', '/api/v2/user/user-data', { first_name: 42 }, '/body/first_name'],
      ['PATCH', '/api/v2/user/user-data', { first_name: ['Ada'] }, '/body/first_name'],
      ['PATCH', '/api/v2/user/user-data', { first_name: true }, '/body/first_name'],
      ['POST', '/api/v2/wallets', { type: ['vault'] }, '/body/type'],
      ['POST', '/api/v2/wallets', { type: 1 }, '/body/type'],
      [
        'POST',
        '/api/v2/auth/sign-up/telegram',
        { init_data: 'x', terms_accepted: 'true' },
        '/body/terms_accepted',
      ],
      [
        'POST',
        '/api/v1/developer/access/rotate',
        { id: randomUUID(), overlap_seconds: '10' },
        '/body/overlap_seconds',
      ],
    ]
    for (const [method, url, body, field] of cases) {
      const problem = expectProblem(await send(method, url, body), 422, 'VALIDATION_FAILED')
      expect(
        problem.errors?.map((error) => error.field),
        `${method} ${url}`,
      ).toContain(field)
    }
    // 1e309 in JSON text reads as Infinity: no number at all.
    const infinite = await app.inject({
      method: 'POST',
      url: '/api/v1/developer/access/rotate',
      headers: headers({ authorization: token }),
      payload: `{"id":"${randomUUID()}","overlap_seconds":1e309}`,
    })
    expectProblem(infinite, 422, 'VALIDATION_FAILED')
    const data = (await get('/api/v2/user/user-data')).json<UserData>()
    expect(data.first_name).toBeNull()
    const wallets = (await get('/api/v2/wallets?limit=100')).json<{ data: { type: string }[] }>()
    expect(wallets.data.map((wallet) => wallet.type)).not.toContain('vault')
  })

  it('a blank name is 422, empty or spaces, and the stored name stays', async () => {
    expect((await send('PATCH', '/api/v2/user/user-data', { first_name: 'Ada' })).statusCode).toBe(
      200,
    )
    for (const blank of ['', '   ']) {
      for (const field of ['first_name', 'last_name']) {
        const response = await send('PATCH', '/api/v2/user/user-data', { [field]: blank })
        const problem = expectProblem(response, 422, 'VALIDATION_FAILED')
        expect(problem.errors?.map((error) => error.field)).toContain(`/body/${field}`)
      }
    }
    expect((await get('/api/v2/user/user-data')).json<UserData>().first_name).toBe('Ada')
    // null still clears, as documented.
    const cleared = await send('PATCH', '/api/v2/user/user-data', { first_name: null })
    expect(cleared.json<UserData>().first_name).toBeNull()
  })

  it('a path parameter over the length limit answers 414 problem+json', async () => {
    const response = await get(`/api/v2/wallets/${'a'.repeat(2_000)}`)
    expectProblem(response, 414, 'URI_TOO_LONG')
  })

  it('a path that does not decode answers 400 problem+json', async () => {
    expectProblem(await get('/api/v2/wallets/%E0%A4%A'), 400, 'BAD_URL')
  })

  it('what the HTTP parser refuses is answered as a problem too: bad request lines, huge headers', async () => {
    await app.listen({ port: 0, host: '127.0.0.1' })
    const { port } = app.server.address() as { port: number }
    const raw = (text: string) =>
      new Promise<string>((resolve, reject) => {
        const socket = connect(port, '127.0.0.1', () => socket.write(text))
        let answer = ''
        socket.on('data', (chunk) => {
          answer += chunk
        })
        socket.on('close', () => resolve(answer))
        socket.on('error', reject)
      })
    for (const [request, status, code] of [
      ['GARBAGE\r\n\r\n', 400, 'BAD_REQUEST'],
      [
        `GET / HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`,
        431,
        'HEADERS_TOO_LARGE',
      ],
    ] as const) {
      const answer = await raw(request)
      expect(answer).toMatch(new RegExp(`^HTTP/1.1 ${status} `))
      expect(answer).toMatch(/content-type: application\/problem\+json/i)
      const body = JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4))
      expect(body).toMatchObject({ status, code })
    }
  })

  it('a request that timed out is answered 408 problem+json', () => {
    let written = ''
    const socket = {
      destroyed: false,
      writable: true,
      write(text: string) {
        written += text
      },
      destroy() {},
    }
    const timeout = Object.assign(new Error('timeout'), { code: 'ERR_HTTP_REQUEST_TIMEOUT' })
    clientErrorHandler(timeout, socket as never)
    expect(written).toMatch(/^HTTP\/1.1 408 Request Timeout\r\n/)
    expect(written).toMatch(/Content-Type: application\/problem\+json/)
    expect(JSON.parse(written.split('\r\n\r\n')[1]!)).toMatchObject({
      status: 408,
      code: 'REQUEST_TIMEOUT',
    })
  })
})

describeServer('a stopping server', () => {
  it('answers a new request 503 SHUTTING_DOWN problem+json while it drains', async () => {
    let release: (() => void) | undefined
    const slow = async (scope: FastifyInstance) => {
      scope.get('/test/slow', { schema: { hide: true } }, async () => {
        await new Promise<void>((resolve) => {
          release = resolve
        })
        return { ok: true }
      })
    }
    const app = await createTestApp(
      {},
      {
        extraRoutes: { v2: [slow] },
        extraPolicies: { 'GET /api/v2/test/slow': { access: 'public' } },
      },
    )
    await app.listen({ port: 0, host: '127.0.0.1' })
    const { port } = app.server.address() as { port: number }
    const tenant = Object.entries(headers())
      .map(([name, value]) => `${name}: ${value}\r\n`)
      .join('')
    // One connection, busy with a slow request: closing the server leaves it
    // open, so a request sent on it after the stop began still reaches us.
    const socket = connect(port, '127.0.0.1')
    let answers = ''
    socket.on('data', (chunk) => {
      answers += chunk
    })
    const ended = new Promise((resolve) => socket.on('close', resolve))
    socket.write(`GET /api/v2/test/slow HTTP/1.1\r\nHost: x\r\n${tenant}\r\n`)
    while (!release) await new Promise((resolve) => setTimeout(resolve, 5))
    const closing = app.close()
    // close() runs its preClose hooks a moment later.
    await new Promise((resolve) => setTimeout(resolve, 200))
    socket.write(`GET /api/v2/user HTTP/1.1\r\nHost: x\r\n${tenant}\r\n`)
    await new Promise((resolve) => setTimeout(resolve, 200))
    release?.()
    await closing
    await ended
    const [first, second] = answers.split(/(?=HTTP\/1\.1 )/)
    expect(first).toMatch(/^HTTP\/1.1 200 /)
    expect(second).toMatch(/^HTTP\/1.1 503 /)
    expect(second).toMatch(/content-type: application\/problem\+json/i)
    expect(second).toMatch(/retry-after: 5/i)
    expect(second).toContain('"code":"SHUTTING_DOWN"')
  })
})
