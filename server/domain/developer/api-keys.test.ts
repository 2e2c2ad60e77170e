import type { FastifyInstance, FastifyRequest } from 'fastify'
import { sql } from 'kysely'
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import type {
  ApiKey,
  ApiKeyList,
  ApiKeyRole,
  ApiKeyWithSecret,
} from '../../../contract/developer.ts'
import { DEMO_TENANT_ID } from '../../../contract/tenancy.ts'
import type { RoutesPlugin } from '../../infra/api-scope.ts'
import type { RoutePolicies } from '../../route-policy.ts'
import {
  bearer,
  captureLogs,
  createTenant,
  createTestApp,
  describeServer,
  expectProblem,
  getUser,
  headers,
  signUp,
  uniqueEmail,
} from '../../test-support.ts'

/** One route per kind of call, on both bases, to drive the role guard with. */
const probeRoutes: RoutesPlugin = async (app) => {
  const who = async (request: FastifyRequest) => ({ user: request.auth.userId })
  app.get('/probe/read', who)
  app.post('/probe/write', who)
  app.post('/probe/money', who)
  app.post('/probe/payout', who)
}
const extraPolicies: RoutePolicies = Object.fromEntries(
  ['v1', 'v2'].flatMap((base) => [
    [`GET /api/${base}/probe/read`, { access: 'person', key: 'read' }],
    [`POST /api/${base}/probe/write`, { access: 'person', key: 'write' }],
    [`POST /api/${base}/probe/money`, { access: 'person', key: 'money' }],
    [`POST /api/${base}/probe/payout`, { access: 'person', key: 'payout' }],
  ]),
)
const probes = { extraRoutes: { v1: [probeRoutes], v2: [probeRoutes] }, extraPolicies }

const raw = (accessToken: string) => headers({ authorization: accessToken })
const withKey = (key: string, extra: Record<string, string> = {}) =>
  headers({ 'x-api-key': key, ...extra })

async function createKey(
  app: FastifyInstance,
  accessToken: string,
  body: { name?: string; role: ApiKeyRole; allowed_ips?: string[] },
): Promise<ApiKeyWithSecret> {
  const response = await app.inject({
    method: 'POST',
    url: '/api/v1/developer/access/create',
    headers: raw(accessToken),
    payload: { name: 'CI deploys', ...body },
  })
  expect(response.statusCode, response.body).toBe(201)
  return response.json<ApiKeyWithSecret>()
}

async function listKeys(app: FastifyInstance, accessToken: string): Promise<ApiKey[]> {
  const response = await app.inject({
    method: 'GET',
    url: '/api/v1/developer/access/list',
    headers: raw(accessToken),
  })
  expect(response.statusCode, response.body).toBe(200)
  return response.json<ApiKeyList>().data
}

/** `POST /developer/access/rotate` with the owner's session, answered as it comes. */
const rotateKey = (
  app: FastifyInstance,
  accessToken: string,
  payload: { id: string; overlap_seconds?: number },
) =>
  app.inject({
    method: 'POST',
    url: '/api/v1/developer/access/rotate',
    headers: raw(accessToken),
    payload,
  })

const call = (
  app: FastifyInstance,
  key: string,
  method: 'GET' | 'POST',
  url: string,
  extra: { headers?: Record<string, string>; remoteAddress?: string } = {},
) =>
  app.inject({
    method,
    url,
    headers: withKey(key, extra.headers),
    ...(method === 'POST' && { payload: {} }),
    ...(extra.remoteAddress && { remoteAddress: extra.remoteAddress }),
  })

const read = (app: FastifyInstance, key: string, extra = {}) =>
  call(app, key, 'GET', '/api/v2/probe/read', extra)

describeServer('developer API keys', () => {
  let app: FastifyInstance
  let production: FastifyInstance

  beforeAll(async () => {
    // One after the other: two PGlite boots at once can outlast the plugin timeout.
    app = await createTestApp({}, probes)
    production = await createTestApp({ SANDBOX: 'false' }, probes)
  })
  afterAll(async () => {
    await Promise.all([app?.close(), production?.close()])
  })
  afterEach(() => {
    vi.useRealTimers()
  })

  it('creates a key whose secret is shown once and listed only by its prefix', async () => {
    const pair = await signUp(app, { stepUp: true })
    const key = await createKey(app, pair.access_token, {
      name: 'Reporting',
      role: 'READ_ONLY',
      allowed_ips: ['203.0.113.0/24', '192.0.2.7/32'],
    })
    expect(key).toMatchObject({
      name: 'Reporting',
      role: 'READ_ONLY',
      enabled: true,
      allowed_ips: ['203.0.113.0/24', '192.0.2.7'],
      last_used_at: null,
      previous_secret_expires_at: null,
    })
    expect(key.secret).toMatch(/^fpk_[0-9a-f]{16}_[A-Za-z0-9_-]{43}$/)
    expect(key.secret.startsWith(`${key.prefix}_`)).toBe(true)

    const listed = await listKeys(app, pair.access_token)
    const { secret: _, ...shown } = key
    expect(listed).toEqual([shown])
    expect(JSON.stringify(listed)).not.toContain(key.secret.slice(key.prefix.length + 1))
  })

  it('keeps no secret in clear: every stored column of keys and secrets is scanned', async () => {
    const pair = await signUp(app, { stepUp: true })
    const first = await createKey(app, pair.access_token, { role: 'DEVELOPER' })
    const rotated = await rotateKey(app, pair.access_token, { id: first.id, overlap_seconds: 600 })
    const second = rotated.json<ApiKeyWithSecret>()
    const { rows } = await sql<Record<string, unknown>>`
      select k.*, s.* from api_keys k join api_key_secrets s on s.api_key_id = k.id
      where k.id = ${first.id}`.execute(app.db)
    expect(rows).toHaveLength(2)
    const stored = JSON.stringify(rows)
    for (const secret of [first.secret, second.secret]) {
      const [, , random] = /^fpk_([0-9a-f]{16})_(.+)$/.exec(secret) as RegExpExecArray
      expect(stored).not.toContain(random)
    }
  })

  it('acts as the key’s owner on both bases', async () => {
    const email = uniqueEmail('dev')
    const pair = await signUp(app, { stepUp: true, email })
    const key = await createKey(app, pair.access_token, { role: 'READ_ONLY' })
    const user = await app.inject({
      method: 'GET',
      url: '/api/v2/user',
      headers: withKey(key.secret),
    })
    expect(user.statusCode, user.body).toBe(200)
    expect(user.json()).toMatchObject({ email })
    const me = (await getUser(app, pair.access_token)).json<{ id: string }>()
    for (const base of ['v1', 'v2']) {
      const answer = await call(app, key.secret, 'GET', `/api/${base}/probe/read`)
      expect(answer.json()).toEqual({ user: me.id })
    }
  })

  describe('the roles table', () => {
    const kinds = [
      ['read', 'GET', 'probe/read'],
      ['write', 'POST', 'probe/write'],
      ['money', 'POST', 'probe/money'],
    ] as const
    // role, kind of call, mode, then 'allowed' or the role the refusal names
    type Outcome = 'allowed' | ApiKeyRole
    const table: [ApiKeyRole, (typeof kinds)[number][0], 'sandbox' | 'production', Outcome][] = [
      ['READ_ONLY', 'read', 'sandbox', 'allowed'],
      ['READ_ONLY', 'write', 'sandbox', 'DEVELOPER'],
      ['READ_ONLY', 'money', 'sandbox', 'DEVELOPER'],
      ['READ_ONLY', 'read', 'production', 'allowed'],
      ['READ_ONLY', 'write', 'production', 'DEVELOPER'],
      ['READ_ONLY', 'money', 'production', 'PRODUCTION'],
      ['DEVELOPER', 'read', 'sandbox', 'allowed'],
      ['DEVELOPER', 'write', 'sandbox', 'allowed'],
      ['DEVELOPER', 'money', 'sandbox', 'allowed'],
      ['DEVELOPER', 'read', 'production', 'allowed'],
      ['DEVELOPER', 'write', 'production', 'allowed'],
      ['DEVELOPER', 'money', 'production', 'PRODUCTION'],
      ['PRODUCTION', 'read', 'sandbox', 'allowed'],
      ['PRODUCTION', 'write', 'sandbox', 'allowed'],
      ['PRODUCTION', 'money', 'sandbox', 'allowed'],
      ['PRODUCTION', 'read', 'production', 'allowed'],
      ['PRODUCTION', 'write', 'production', 'allowed'],
      ['PRODUCTION', 'money', 'production', 'allowed'],
    ]
    it.each(table)('%s key, %s call, %s deployment: %s', async (role, kind, mode, needed) => {
      const target = mode === 'sandbox' ? app : production
      // A production app has no sandbox KYC decision to sign up with.
      const pair = await signUp(target, { stepUp: true, kyc: mode === 'sandbox' })
      const key = await createKey(target, pair.access_token, { role })
      const [, method, path] = kinds.find(([name]) => name === kind) as (typeof kinds)[number]
      for (const base of ['v1', 'v2']) {
        const response = await call(target, key.secret, method, `/api/${base}/${path}`)
        if (needed === 'allowed') {
          expect(response.statusCode, response.body).toBe(200)
        } else {
          const problem = expectProblem(response, 403, 'API_KEY_ROLE_FORBIDDEN')
          expect(problem.required_role).toBe(needed)
        }
      }
    })

    it('guards the real routes: a READ_ONLY key lists wallets and cannot create one', async () => {
      const pair = await signUp(app, { stepUp: true })
      const key = await createKey(app, pair.access_token, { role: 'READ_ONLY' })
      const list = await call(app, key.secret, 'GET', '/api/v2/wallets')
      expect(list.statusCode, list.body).toBe(200)
      const create = await app.inject({
        method: 'POST',
        url: '/api/v2/wallets',
        headers: withKey(key.secret),
        payload: { type: 'personal' },
      })
      expect(expectProblem(create, 403, 'API_KEY_ROLE_FORBIDDEN').required_role).toBe('DEVELOPER')
    })

    it('guards the real routes: a DEVELOPER key places no order in production', async () => {
      const pair = await signUp(production, { stepUp: true, kyc: false })
      const key = await createKey(production, pair.access_token, { role: 'DEVELOPER' })
      for (const url of [
        '/api/v1/orders/WITHDRAWAL_FIAT_SEPA',
        '/api/v1/orders/0190f0f0-0000-7000-8000-000000000000/cancel',
      ]) {
        const response = await call(production, key.secret, 'POST', url)
        expect(expectProblem(response, 403, 'API_KEY_ROLE_FORBIDDEN').required_role).toBe(
          'PRODUCTION',
        )
      }
    })
  })

  it('cannot manage keys: that needs the person, signed in', async () => {
    const pair = await signUp(app, { stepUp: true })
    const key = await createKey(app, pair.access_token, { role: 'PRODUCTION' })
    const attempts = [
      { method: 'GET', url: '/api/v1/developer/access/list' },
      {
        method: 'POST',
        url: '/api/v1/developer/access/create',
        payload: { name: 'x', role: 'PRODUCTION' },
      },
      { method: 'POST', url: '/api/v1/developer/access/rotate', payload: { id: key.id } },
      {
        method: 'POST',
        url: '/api/v1/developer/access/update',
        payload: { id: key.id, role: 'PRODUCTION' },
      },
    ] as const
    for (const attempt of attempts) {
      const response = await app.inject({ ...attempt, headers: withKey(key.secret) })
      expectProblem(response, 403, 'SESSION_REQUIRED')
    }
  })

  it('reads the vendors with a key too', async () => {
    const pair = await signUp(app, { stepUp: true })
    const key = await createKey(app, pair.access_token, { role: 'READ_ONLY' })
    const response = await call(app, key.secret, 'GET', '/api/v1/developer/vendors/list')
    expect(response.statusCode, response.body).toBe(200)
  })

  it('answers one 401 for an unknown, wrong, disabled or foreign-tenant key', async () => {
    const pair = await signUp(app, { stepUp: true })
    const key = await createKey(app, pair.access_token, { role: 'DEVELOPER' })
    const otherTenant = await createTenant(app)
    const wrongSecret = `${key.prefix}_${'A'.repeat(43)}`
    const answers = [
      await read(app, 'garbage'),
      await read(app, `fpk_${'0'.repeat(16)}_${'A'.repeat(43)}`),
      await read(app, wrongSecret),
      await read(app, key.secret, { headers: { 'x-tenant-id': otherTenant } }),
    ]
    const disable = await app.inject({
      method: 'POST',
      url: '/api/v1/developer/access/update',
      headers: raw(pair.access_token),
      payload: { id: key.id, enabled: false },
    })
    expect(disable.json<ApiKey>().enabled).toBe(false)
    answers.push(await read(app, key.secret))
    const bodies = answers.map((answer) => expectProblem(answer, 401, 'API_KEY_INVALID'))
    expect(new Set(bodies.map((body) => JSON.stringify(body))).size).toBe(1)

    await app.inject({
      method: 'POST',
      url: '/api/v1/developer/access/update',
      headers: raw(pair.access_token),
      payload: { id: key.id, enabled: true },
    })
    expect((await read(app, key.secret)).statusCode).toBe(200)
  })

  it('is usable only from the allowed addresses, which update can change', async () => {
    const pair = await signUp(app, { stepUp: true })
    const key = await createKey(app, pair.access_token, {
      role: 'READ_ONLY',
      allowed_ips: ['203.0.113.0/24'],
    })
    expect((await read(app, key.secret, { remoteAddress: '203.0.113.80' })).statusCode).toBe(200)
    expectProblem(
      await read(app, key.secret, { remoteAddress: '198.51.100.1' }),
      401,
      'API_KEY_INVALID',
    )

    await app.inject({
      method: 'POST',
      url: '/api/v1/developer/access/update',
      headers: raw(pair.access_token),
      payload: { id: key.id, allowed_ips: ['198.51.100.1'] },
    })
    expect((await read(app, key.secret, { remoteAddress: '198.51.100.1' })).statusCode).toBe(200)
    expectProblem(
      await read(app, key.secret, { remoteAddress: '203.0.113.80' }),
      401,
      'API_KEY_INVALID',
    )
  })

  it('cannot change its owner’s e-mail or phone, whatever its role', async () => {
    const pair = await signUp(app, { stepUp: true })
    const key = await createKey(app, pair.access_token, { role: 'PRODUCTION' })
    for (const [url, payload] of [
      ['/api/v2/user/email', { email: 'someone-else@example.com' }],
      ['/api/v2/user/phone', { phone: '+14155552671' }],
    ] as const) {
      const response = await app.inject({
        method: 'PATCH',
        url,
        headers: withKey(key.secret),
        payload,
      })
      expectProblem(response, 403, 'SESSION_REQUIRED')
    }
  })

  it('believes no X-Forwarded-For unless TRUST_PROXY names the proxy', async () => {
    const pair = await signUp(app, { stepUp: true })
    const key = await createKey(app, pair.access_token, {
      role: 'READ_ONLY',
      allowed_ips: ['203.0.113.0/24'],
    })
    const forwarded = {
      headers: { 'x-forwarded-for': '203.0.113.80' },
      remoteAddress: '198.51.100.1',
    }
    expectProblem(await read(app, key.secret, forwarded), 401, 'API_KEY_INVALID')

    const behindProxy = await createTestApp({ TRUST_PROXY: '198.51.100.1' }, probes)
    try {
      const owner = await signUp(behindProxy, { stepUp: true })
      const proxied = await createKey(behindProxy, owner.access_token, {
        role: 'READ_ONLY',
        allowed_ips: ['203.0.113.0/24'],
      })
      expect((await read(behindProxy, proxied.secret, forwarded)).statusCode).toBe(200)
      // Another peer's header is still not believed.
      const stranger = { ...forwarded, remoteAddress: '192.0.2.9' }
      expectProblem(await read(behindProxy, proxied.secret, stranger), 401, 'API_KEY_INVALID')
    } finally {
      await behindProxy.close()
    }
  })

  it('refuses an allow-list entry that is no address, naming it', async () => {
    const pair = await signUp(app, { stepUp: true })
    const response = await app.inject({
      method: 'POST',
      url: '/api/v1/developer/access/create',
      headers: raw(pair.access_token),
      payload: { name: 'x', role: 'READ_ONLY', allowed_ips: ['10.0.0.1', 'office'] },
    })
    const problem = expectProblem(response, 422, 'VALIDATION_FAILED')
    expect(problem.errors).toEqual([{ field: '/body/allowed_ips/1', message: expect.any(String) }])
    expect(await listKeys(app, pair.access_token)).toEqual([])
  })

  it('renames and re-roles a key, and answers 404 for another person’s', async () => {
    const pair = await signUp(app, { stepUp: true })
    const other = await signUp(app, { stepUp: true })
    const key = await createKey(app, pair.access_token, { role: 'READ_ONLY' })
    const update = await app.inject({
      method: 'POST',
      url: '/api/v1/developer/access/update',
      headers: raw(pair.access_token),
      payload: { id: key.id, name: 'Deploys', role: 'DEVELOPER' },
    })
    expect(update.json<ApiKey>()).toMatchObject({
      name: 'Deploys',
      role: 'DEVELOPER',
      enabled: true,
    })
    expect((await call(app, key.secret, 'POST', '/api/v2/probe/write')).statusCode).toBe(200)

    for (const url of ['/api/v1/developer/access/update', '/api/v1/developer/access/rotate']) {
      const response = await app.inject({
        method: 'POST',
        url,
        headers: raw(other.access_token),
        payload: { id: key.id, ...(url.endsWith('update') && { enabled: false }) },
      })
      expectProblem(response, 404, 'API_KEY_NOT_FOUND')
    }
    expect(await listKeys(app, other.access_token)).toEqual([])
    expect((await read(app, key.secret)).statusCode).toBe(200)
  })

  it('rotates with no overlap: the old secret stops at once', async () => {
    const pair = await signUp(app, { stepUp: true })
    const key = await createKey(app, pair.access_token, { role: 'READ_ONLY' })
    const response = await rotateKey(app, pair.access_token, { id: key.id })
    expect(response.statusCode, response.body).toBe(200)
    const rotated = response.json<ApiKeyWithSecret>()
    expect(rotated).toMatchObject({ id: key.id, previous_secret_expires_at: null })
    expect(rotated.secret).not.toBe(key.secret)
    expect(rotated.prefix).not.toBe(key.prefix)
    expectProblem(await read(app, key.secret), 401, 'API_KEY_INVALID')
    expect((await read(app, rotated.secret)).statusCode).toBe(200)
    expect((await listKeys(app, pair.access_token))[0]?.prefix).toBe(rotated.prefix)
  })

  it('rotates with an overlap: both secrets work until it ends, then only the new one', async () => {
    const pair = await signUp(app, { stepUp: true })
    const key = await createKey(app, pair.access_token, { role: 'READ_ONLY' })
    const start = new Date()
    vi.setSystemTime(start)
    const response = await rotateKey(app, pair.access_token, { id: key.id, overlap_seconds: 300 })
    const rotated = response.json<ApiKeyWithSecret>()
    const ends = new Date(start.getTime() + 300_000)
    expect(rotated.previous_secret_expires_at).toBe(ends.toISOString())
    expect((await read(app, key.secret)).statusCode).toBe(200)
    expect((await read(app, rotated.secret)).statusCode).toBe(200)

    vi.setSystemTime(new Date(ends.getTime() - 1_000))
    expect((await read(app, key.secret)).statusCode).toBe(200)
    vi.setSystemTime(ends)
    expectProblem(await read(app, key.secret), 401, 'API_KEY_INVALID')
    expect((await read(app, rotated.secret)).statusCode).toBe(200)
    expect((await listKeys(app, pair.access_token))[0]?.previous_secret_expires_at).toBeNull()
  })

  it('at most 25 enabled keys per person: one more is 409 API_KEY_LIMIT, also by enabling', async () => {
    const pair = await signUp(app, { stepUp: true })
    const keys: ApiKeyWithSecret[] = []
    for (let i = 0; i < 25; i++) {
      keys.push(await createKey(app, pair.access_token, { name: `key ${i}`, role: 'READ_ONLY' }))
    }
    const create = () =>
      app.inject({
        method: 'POST',
        url: '/api/v1/developer/access/create',
        headers: raw(pair.access_token),
        payload: { name: 'one too many', role: 'READ_ONLY' },
      })
    expectProblem(await create(), 409, 'API_KEY_LIMIT')
    const update = (id: string, enabled: boolean) =>
      app.inject({
        method: 'POST',
        url: '/api/v1/developer/access/update',
        headers: raw(pair.access_token),
        payload: { id, enabled },
      })
    expect((await update(keys[0]!.id, false)).statusCode).toBe(200)
    const replacement = await create()
    expect(replacement.statusCode, replacement.body).toBe(201)
    // The disabled key cannot come back while 25 others are enabled.
    expectProblem(await update(keys[0]!.id, true), 409, 'API_KEY_LIMIT')
    // Another person has their own 25.
    const other = await signUp(app, { stepUp: true })
    expect((await createKey(app, other.access_token, { role: 'READ_ONLY' })).enabled).toBe(true)
  })

  it('a rotation with no overlap also stops an older secret still in its overlap', async () => {
    const pair = await signUp(app, { stepUp: true })
    const a = await createKey(app, pair.access_token, { role: 'READ_ONLY' })
    const rotate = async (overlapSeconds: number) => {
      const response = await rotateKey(app, pair.access_token, {
        id: a.id,
        overlap_seconds: overlapSeconds,
      })
      expect(response.statusCode, response.body).toBe(200)
      return response.json<ApiKeyWithSecret>()
    }
    const b = await rotate(604_800)
    expect((await read(app, a.secret)).statusCode).toBe(200)
    // A leak: rotate now. Neither A (a week of overlap left) nor B may work any longer.
    const c = await rotate(0)
    expectProblem(await read(app, a.secret), 401, 'API_KEY_INVALID')
    expectProblem(await read(app, b.secret), 401, 'API_KEY_INVALID')
    expect((await read(app, c.secret)).statusCode).toBe(200)
    expect(c.previous_secret_expires_at).toBeNull()
  })

  it('a shorter overlap cuts an older secret’s longer one down to it', async () => {
    const pair = await signUp(app, { stepUp: true })
    const a = await createKey(app, pair.access_token, { role: 'READ_ONLY' })
    const start = new Date()
    vi.setSystemTime(start)
    const rotate = (overlapSeconds: number) =>
      rotateKey(app, pair.access_token, { id: a.id, overlap_seconds: overlapSeconds })
    await rotate(604_800)
    const c = (await rotate(60)).json<ApiKeyWithSecret>()
    expect(c.previous_secret_expires_at).toBe(new Date(start.getTime() + 60_000).toISOString())
    vi.setSystemTime(new Date(start.getTime() + 60_000))
    expectProblem(await read(app, a.secret), 401, 'API_KEY_INVALID')
    expect((await read(app, c.secret)).statusCode).toBe(200)
  })

  it('takes its default overlap from API_KEY_ROTATION_OVERLAP_SECONDS', async () => {
    const configured = await createTestApp({ API_KEY_ROTATION_OVERLAP_SECONDS: '120' })
    try {
      const pair = await signUp(configured, { stepUp: true })
      const key = await createKey(configured, pair.access_token, { role: 'READ_ONLY' })
      const before = Date.now()
      const response = await rotateKey(configured, pair.access_token, { id: key.id })
      const after = Date.now()
      // The server takes its clock inside the request: between our two readings.
      const ends = Date.parse(response.json<ApiKey>().previous_secret_expires_at ?? '')
      expect(ends).toBeGreaterThanOrEqual(before + 120_000)
      expect(ends).toBeLessThanOrEqual(after + 120_000)
      const old = await configured.inject({
        method: 'GET',
        url: '/api/v2/wallets',
        headers: withKey(key.secret),
      })
      expect(old.statusCode).toBe(200)
    } finally {
      await configured.close()
    }
  })

  it('records its last use, writing at most once a minute', async () => {
    const pair = await signUp(app, { stepUp: true })
    const key = await createKey(app, pair.access_token, { role: 'READ_ONLY' })
    const t0 = new Date(Date.now() + 120_000)
    const lastUsed = async () => (await listKeys(app, pair.access_token))[0]?.last_used_at

    vi.setSystemTime(t0)
    await read(app, key.secret)
    expect(await lastUsed()).toBe(t0.toISOString())
    vi.setSystemTime(new Date(t0.getTime() + 30_000))
    await read(app, key.secret)
    expect(await lastUsed()).toBe(t0.toISOString())
    const later = new Date(t0.getTime() + 61_000)
    vi.setSystemTime(later)
    await read(app, key.secret)
    expect(await lastUsed()).toBe(later.toISOString())
  })

  it('answers 423 for the key of a blocked account', async () => {
    const pair = await signUp(app, { stepUp: true })
    const key = await createKey(app, pair.access_token, { role: 'READ_ONLY' })
    const me = (await getUser(app, pair.access_token)).json<{ id: string }>()
    await app.db
      .updateTable('users')
      .set({ blocked_at: new Date() })
      .where('id', '=', me.id)
      .where('tenant_id', '=', DEMO_TENANT_ID)
      .execute()
    expectProblem(await read(app, key.secret), 423, 'USER_BLOCKED')
  })

  it('still takes the bearer token when no key is sent', async () => {
    const pair = await signUp(app, { stepUp: true })
    const response = await app.inject({
      method: 'GET',
      url: '/api/v2/probe/read',
      headers: headers(bearer(pair.access_token)),
    })
    expect(response.statusCode).toBe(200)
  })
})

describeServer('developer API keys: rate limit and logs', () => {
  let app: FastifyInstance
  const logs = captureLogs()

  beforeAll(async () => {
    app = await createTestApp(
      { API_KEY_RATE_LIMIT_PER_MINUTE: '3' },
      { ...probes, logStream: logs.stream },
    )
  })
  afterAll(async () => {
    await app?.close()
  })
  afterEach(() => {
    vi.useRealTimers()
  })

  it('limits calls per key per minute with Retry-After, each key on its own', async () => {
    const pair = await signUp(app, { stepUp: true })
    const first = await createKey(app, pair.access_token, { role: 'READ_ONLY' })
    const second = await createKey(app, pair.access_token, { role: 'READ_ONLY' })
    const start = new Date(Date.now() + 7_200_000)
    start.setUTCSeconds(0, 0)
    vi.setSystemTime(start)
    for (let i = 0; i < 3; i++) expect((await read(app, first.secret)).statusCode).toBe(200)
    vi.setSystemTime(new Date(start.getTime() + 20_000))
    const limited = await read(app, first.secret)
    const problem = expectProblem(limited, 429, 'API_KEY_RATE_LIMITED')
    expect(limited.headers['retry-after']).toBe('40')
    expect(problem.retry_after).toBe(40)
    expect((await read(app, second.secret)).statusCode).toBe(200)

    vi.setSystemTime(new Date(start.getTime() + 60_000))
    expect((await read(app, first.secret)).statusCode).toBe(200)
  })

  it('never writes a key’s secret to the logs', async () => {
    const pair = await signUp(app, { stepUp: true })
    const key = await createKey(app, pair.access_token, { role: 'READ_ONLY' })
    await rotateKey(app, pair.access_token, { id: key.id, overlap_seconds: 60 })
    await read(app, key.secret)
    await call(app, key.secret, 'POST', '/api/v2/probe/write')
    await read(app, `${key.secret.slice(0, -1)}x`)
    const random = key.secret.slice(key.prefix.length + 1)
    expect(logs.lines.length).toBeGreaterThan(0)
    expect(logs.lines.join('\n')).not.toContain(random)
  })
})
