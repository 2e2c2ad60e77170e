import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, expect, it } from 'vitest'
import type { TokenPair } from '../../../contract/auth.ts'
import type { SessionList } from '../../../contract/security.ts'
import {
  createTestApp,
  describeServer,
  expectProblem,
  headers,
  refresh,
  signIn,
  signUp,
  stepUp,
  uniqueEmail,
} from '../../test-support.ts'
import { recordSignInDevice } from './devices.ts'
import {
  CHROME_MAC,
  SAFARI_IPHONE,
  SECURITY_TEST_ENV,
  securityCalls,
} from './security-test-support.ts'

/* Issue 21 on the real app: a person's sessions and devices. */

describeServer('sessions and devices', () => {
  let app: FastifyInstance
  beforeAll(async () => {
    app = await createTestApp(SECURITY_TEST_ENV)
  })
  afterAll(() => app?.close())

  const { v2 } = securityCalls(() => app)

  it('lists the person’s sessions with device, app, address and which one is current', async () => {
    const email = uniqueEmail()
    const first = await signUp(app, { email, headers: headers({ 'user-agent': CHROME_MAC }) })
    await signIn(app, { email, headers: headers({ 'user-agent': SAFARI_IPHONE }) })
    const list = await v2('GET', '/user/sessions', first.access_token)
    expect(list.statusCode, list.body).toBe(200)
    const page = list.json<SessionList>()
    expect(page.total).toBe(2)
    expect(page.is_last_page).toBe(true)
    const devices = page.data.map((s) => [s.device, s.current, s.sign_in_method, s.new_device])
    expect(devices).toEqual(
      expect.arrayContaining([
        ['Chrome, macOS', true, 'password', false],
        ['Safari, iPhone', false, 'password', true],
      ]),
    )
    expect(page.data[0]?.ip).toBe('127.0.0.1')
    expect(page.data[0]?.app_env).toBe('web')
  })

  it('signing a session out ends its refresh family and its access tokens at once', async () => {
    const email = uniqueEmail()
    const mine = await signUp(app, { email, kyc: false })
    const other = (await signIn(app, { email })).json<TokenPair>()
    const list = (await v2('GET', '/user/sessions', mine.access_token)).json<SessionList>()
    const target = list.data.find((s) => !s.current)
    await stepUp(app, mine.access_token)
    const ended = await v2('DELETE', `/user/sessions/${target?.id}`, mine.access_token)
    expect(ended.statusCode).toBe(204)
    expectProblem(await refresh(app, other.refresh_token), 401, 'INVALID_REFRESH_TOKEN')
    expectProblem(await v2('GET', '/user', other.access_token), 401, 'UNAUTHORIZED')
    expect((await v2('GET', '/user', mine.access_token)).statusCode).toBe(200)
    const again = await v2('DELETE', `/user/sessions/${target?.id}`, mine.access_token)
    expectProblem(again, 404, 'SESSION_NOT_FOUND')
  })

  it('another person’s session cannot be ended', async () => {
    const mine = await signUp(app, { kyc: false })
    const theirs = await signUp(app, { kyc: false })
    const [session] = (await v2('GET', '/user/sessions', theirs.access_token)).json<SessionList>()
      .data
    await stepUp(app, mine.access_token)
    const refused = await v2('DELETE', `/user/sessions/${session?.id}`, mine.access_token)
    expectProblem(refused, 404, 'SESSION_NOT_FOUND')
    expect((await v2('GET', '/user', theirs.access_token)).statusCode).toBe(200)
  })

  it('signs out every other session, and keeps this one', async () => {
    const email = uniqueEmail()
    const mine = await signUp(app, { email, kyc: false })
    const others = [
      (await signIn(app, { email })).json<TokenPair>(),
      (await signIn(app, { email })).json<TokenPair>(),
    ]
    await stepUp(app, mine.access_token)
    const ended = await v2('POST', '/user/sessions/sign-out-others', mine.access_token)
    expect(ended.json()).toMatchObject({ ended: 2 })
    for (const pair of others) {
      expectProblem(await refresh(app, pair.refresh_token), 401, 'INVALID_REFRESH_TOKEN')
    }
    const list = (await v2('GET', '/user/sessions', mine.access_token)).json<SessionList>()
    expect(list.data.map((s) => s.current)).toEqual([true])
  })

  it('API keys cannot list or end sessions', async () => {
    const pair = await signUp(app)
    await stepUp(app, pair.access_token)
    const { secret } = (
      await app.inject({
        method: 'POST',
        url: '/api/v1/developer/access/create',
        headers: headers({ authorization: pair.access_token }),
        payload: { name: 'reader', role: 'READ_ONLY' },
      })
    ).json<{ secret: string }>()
    const list = await app.inject({
      method: 'GET',
      url: '/api/v2/user/sessions',
      headers: headers({ 'x-api-key': secret }),
    })
    expectProblem(list, 403, 'SESSION_REQUIRED')
  })

  it('recordSignInDevice says new only for a device unseen while another was seen', async () => {
    const pair = await signUp(app, { kyc: false })
    const { id: userId } = (await v2('GET', '/user', pair.access_token)).json<{ id: string }>()
    const tenantId = (await app.tokens.verifyAccess(pair.access_token))?.tenantId as string
    const device = (userAgent: string) => ({
      tenantId,
      userId,
      userAgent,
      appEnv: 'web' as const,
    })
    const now = new Date()
    // The sign-up's device (the test client's, no user agent) was the first.
    const iphone = await recordSignInDevice(app.db, device(SAFARI_IPHONE), now)
    expect(iphone.newDevice).toBe(true)
    const again = await recordSignInDevice(app.db, device(SAFARI_IPHONE), now)
    expect(again).toEqual({ deviceId: iphone.deviceId, newDevice: false })
    const telegram = await recordSignInDevice(
      app.db,
      { ...device(SAFARI_IPHONE), appEnv: 'telegram' },
      now,
    )
    expect(telegram.newDevice).toBe(true)
  })
})
