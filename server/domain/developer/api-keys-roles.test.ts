import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ApiKeyRole } from '../../../contract/developer.ts'
import {
  createTestApp,
  describeServer,
  expectProblem,
  getUser,
  signUp,
  uniqueEmail,
} from '../../test-support.ts'
import { call, createKey, probes, withKey } from './api-keys-test-support.ts'

describeServer('developer API keys: what each role may call', () => {
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
})
