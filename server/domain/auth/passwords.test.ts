import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, expect, it } from 'vitest'
import type { TokenPair } from '../../../contract/auth.ts'
import {
  bearer,
  createTestApp,
  DEFAULT_PASSWORD,
  describeServer,
  expectProblem,
  getUser,
  headers,
  refresh,
  signIn,
  signUp,
  stepUp,
  uniqueEmail,
} from '../../test-support.ts'
import { latestCode, sendEmailCode, verifyEmail } from '../otp/otp-test-support.ts'

/*
 * Issue 26, finding 7: a password can be changed (signed in, the second look
 * and the current password) and a forgotten one reset with a code; either way
 * every other session ends and `security.password_changed` is written.
 */

const NEW_PASSWORD = 'a quite different passphrase'

describeServer('changing the password', () => {
  let app: FastifyInstance
  beforeAll(async () => {
    app = await createTestApp()
  })
  afterAll(() => app?.close())

  const change = (token: string, body: object) =>
    app.inject({
      method: 'POST',
      url: '/api/v2/user/password',
      headers: headers(bearer(token)),
      payload: body,
    })
  const status = async (token: string) =>
    (
      await app.inject({
        method: 'GET',
        url: '/api/v2/user/password',
        headers: headers(bearer(token)),
      })
    ).json<{ has_password: boolean; changed_at: string | null }>()

  it('needs the second look and the current password; every other session ends, this one stays', async () => {
    const email = uniqueEmail()
    const mine = await signUp(app, { email, kyc: false })
    const other = (await signIn(app, { email })).json<TokenPair>()
    const body = { current_password: DEFAULT_PASSWORD, new_password: NEW_PASSWORD }

    expectProblem(await change(mine.access_token, body), 403, 'STEP_UP_REQUIRED')
    await stepUp(app, mine.access_token)
    const changed = await change(mine.access_token, body)

    expect(changed.statusCode, changed.body).toBe(200)
    expect(changed.json()).toMatchObject({ sessions_ended: 1, changed_at: expect.any(String) })
    expect((await getUser(app, other.access_token)).statusCode).toBe(401)
    expect((await refresh(app, other.refresh_token)).statusCode).toBe(401)
    expect((await getUser(app, mine.access_token)).statusCode).toBe(200)
    expect((await signIn(app, { email })).statusCode).toBe(400)
    expect((await signIn(app, { email, password: NEW_PASSWORD })).statusCode).toBe(200)
    expect((await status(mine.access_token)).changed_at).toBe(changed.json().changed_at)
    expect(await passwordEvents(app, mine.access_token)).toEqual([
      {
        kind: 'security.password_changed',
        payload: { via: 'change', changed_at: changed.json().changed_at },
      },
    ])
  })

  it('refuses a wrong or missing current password, the same password, and a weak one', async () => {
    const email = uniqueEmail('ada')
    const { access_token } = await signUp(app, { email, kyc: false, stepUp: true })

    const wrong = expectProblem(
      await change(access_token, { current_password: 'not it at all', new_password: NEW_PASSWORD }),
      400,
      'CURRENT_PASSWORD_INVALID',
    )
    expect(wrong.errors).toEqual([{ field: '/body/current_password', message: expect.any(String) }])
    const missing = expectProblem(
      await change(access_token, { new_password: NEW_PASSWORD }),
      422,
      'VALIDATION_FAILED',
    )
    expect(missing.errors?.[0]?.field).toBe('/body/current_password')
    expectProblem(
      await change(access_token, {
        current_password: DEFAULT_PASSWORD,
        new_password: DEFAULT_PASSWORD,
      }),
      422,
      'PASSWORD_UNCHANGED',
    )
    const weak = expectProblem(
      await change(access_token, {
        current_password: DEFAULT_PASSWORD,
        new_password: `${email.split('@')[0]}-2025`,
      }),
      422,
      'PASSWORD_TOO_WEAK',
    )
    expect(weak.errors?.[0]?.field).toBe('/body/new_password')
    expect((await status(access_token)).changed_at).toBeNull()
  })

  it('an account without a password sets its first with the second look alone', async () => {
    const email = uniqueEmail()
    await sendEmailCode(app, email)
    const pair = (await verifyEmail(app, email, await latestCode(app, email))).json<TokenPair>()
    expect(await status(pair.access_token)).toEqual({ has_password: false, changed_at: null })

    await stepUp(app, pair.access_token)
    const set = await change(pair.access_token, { new_password: NEW_PASSWORD })

    expect(set.statusCode, set.body).toBe(200)
    expect((await status(pair.access_token)).has_password).toBe(true)
    expect((await signIn(app, { email, password: NEW_PASSWORD })).statusCode).toBe(200)
  })

  it('an API key has no password to change', async () => {
    const pair = await signUp(app, { stepUp: true })
    const { secret } = (
      await app.inject({
        method: 'POST',
        url: '/api/v1/developer/access/create',
        headers: headers({ authorization: pair.access_token }),
        payload: { name: 'deploys', role: 'PRODUCTION' },
      })
    ).json<{ secret: string }>()
    const refused = await app.inject({
      method: 'POST',
      url: '/api/v2/user/password',
      headers: headers({ 'x-api-key': secret }),
      payload: { current_password: DEFAULT_PASSWORD, new_password: NEW_PASSWORD },
    })
    expectProblem(refused, 403, 'SESSION_REQUIRED')
  })
})

/** The person an access token is for (its `sub` claim). */
function userIdOf(accessToken: string): string {
  const [, claims] = accessToken.split('.')
  return JSON.parse(Buffer.from(claims ?? '', 'base64url').toString('utf8')).sub
}

/** The `security.password_changed` events of the holder of `accessToken`, oldest first. */
const passwordEvents = (app: FastifyInstance, accessToken: string) =>
  app.db
    .selectFrom('events')
    .select(['kind', 'payload'])
    .where('user_id', '=', userIdOf(accessToken))
    .where('kind', '=', 'security.password_changed')
    .orderBy('created_at')
    .execute()
