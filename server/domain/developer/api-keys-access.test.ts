import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, expect, it } from 'vitest'
import type { ApiKey } from '../../../contract/developer.ts'
import { DEMO_TENANT_ID } from '../../../contract/tenancy.ts'
import {
  bearer,
  createTenant,
  createTestApp,
  describeServer,
  expectProblem,
  getUser,
  headers,
  signUp,
} from '../../test-support.ts'
import { createKey, listKeys, probes, raw, read } from './api-keys-test-support.ts'

describeServer('developer API keys: who and where a key works', () => {
  let app: FastifyInstance
  beforeAll(async () => {
    app = await createTestApp({}, probes)
  })
  afterAll(async () => {
    await app?.close()
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
