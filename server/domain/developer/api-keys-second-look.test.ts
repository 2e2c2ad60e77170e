import { randomUUID } from 'node:crypto'
import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, expect, it } from 'vitest'
import type { TokenPair } from '../../../contract/auth.ts'
import type { ApiKey, ApiKeyList, ApiKeyWithSecret } from '../../../contract/developer.ts'
import {
  createTestApp,
  createWallet,
  describeServer,
  expectProblem,
  headers,
  signIn,
  signUp,
  uniqueEmail,
} from '../../test-support.ts'
import { eventKinds, userIdOf } from '../events/events-test-support.ts'

/*
 * Issue 26, finding 3: a stolen token neither re-enables, re-roles nor frees a
 * key (update, like create and rotate, needs the second look), and a key sends
 * money out only with the PRODUCTION role and an IP allow-list.
 */
describeServer('API keys: widened only by the person, payouts only by bound keys', () => {
  let app: FastifyInstance
  beforeAll(async () => {
    app = await createTestApp()
  })
  afterAll(() => app?.close())

  const v1 = (token: string, url: string, payload: object, method: 'GET' | 'POST' = 'POST') =>
    app.inject({
      method,
      url: `/api/v1${url}`,
      headers: headers({ authorization: token }),
      ...(method === 'POST' && { payload }),
    })
  const withKey = (key: string, url: string, payload: object) =>
    app.inject({ method: 'POST', url, headers: headers({ 'x-api-key': key }), payload })

  async function createKey(owner: TokenPair, body: Record<string, unknown>) {
    const created = await v1(owner.access_token, '/developer/access/create', { name: 'k', ...body })
    expect(created.statusCode, created.body).toBe(201)
    return created.json<ApiKeyWithSecret>()
  }

  it('a stolen token cannot re-enable, re-role or free a key, nor make or rotate one', async () => {
    const email = uniqueEmail('keys')
    const owner = await signUp(app, { email, kyc: false, stepUp: true })
    const thief = (await signIn(app, { email })).json<TokenPair>().access_token
    const key = await createKey(owner, { role: 'READ_ONLY', allowed_ips: ['203.0.113.7'] })
    const disabled = await v1(owner.access_token, '/developer/access/update', {
      id: key.id,
      enabled: false,
    })
    expect(disabled.statusCode, disabled.body).toBe(200)

    const attempts = [
      [
        '/developer/access/update',
        { id: key.id, enabled: true, role: 'PRODUCTION', allowed_ips: [] },
      ],
      ['/developer/access/rotate', { id: key.id, overlap_seconds: 0 }],
      ['/developer/access/create', { name: 'mine now', role: 'PRODUCTION' }],
    ] as const
    for (const [url, body] of attempts) {
      expectProblem(await v1(thief, url, body), 403, 'STEP_UP_REQUIRED')
    }
    const [listed] = (
      await v1(owner.access_token, '/developer/access/list', {}, 'GET')
    ).json<ApiKeyList>().data
    expect(listed).toMatchObject<Partial<ApiKey>>({
      id: key.id,
      enabled: false,
      role: 'READ_ONLY',
      allowed_ips: ['203.0.113.7'],
      prefix: key.prefix,
    })
    // Each change the owner made is told on every channel.
    expect(await eventKinds(app, await userIdOf(app, owner))).toEqual([
      'security.api_key_created',
      'security.api_key_changed',
    ])
  })

  it('a key withdraws and adds destinations only as PRODUCTION bound to an IP allow-list', async () => {
    const owner = await signUp(app, { stepUp: true })
    const wallet = await createWallet(app, owner.access_token)
    const destinations = `/api/v2/counterparties/${wallet.uuid}/${randomUUID()}/destinations`
    const withdrawal = '/api/v1/orders/WITHDRAWAL_CRYPTO'
    const quote = { quote_id: randomUUID() }

    const anywhere = await createKey(owner, { role: 'PRODUCTION' })
    for (const [url, body] of [
      [withdrawal, quote],
      [destinations, { type: 'CRYPTO' }],
    ] as const) {
      expectProblem(await withKey(anywhere.secret, url, body), 403, 'API_KEY_ALLOW_LIST_REQUIRED')
    }
    // Play money or not: a DEVELOPER key sends nothing out, even bound to an address.
    const developer = await createKey(owner, { role: 'DEVELOPER', allowed_ips: ['127.0.0.1'] })
    const refused = expectProblem(
      await withKey(developer.secret, withdrawal, quote),
      403,
      'API_KEY_ROLE_FORBIDDEN',
    )
    expect(refused.required_role).toBe('PRODUCTION')

    const bound = await createKey(owner, { role: 'PRODUCTION', allowed_ips: ['127.0.0.1'] })
    // Past the guard: the order itself answers (a key gives no second look, and needs none).
    expectProblem(await withKey(bound.secret, withdrawal, quote), 422, 'QUOTE_NOT_FOUND')
  })
})
