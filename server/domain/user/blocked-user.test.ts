import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, expect, it } from 'vitest'
import type { TokenPair } from '../../../contract/auth.ts'
import {
  bearer,
  createTestApp,
  describeServer,
  expectProblem,
  getUser,
  headers,
  refresh,
  signIn,
  signUp,
  uniqueEmail,
} from '../../test-support.ts'
import { launchUser, signedInitData, TEST_BOT_TOKEN } from '../auth/telegram-test-support.ts'

describeServer('an account blocked by the tenant', () => {
  let app: FastifyInstance
  beforeAll(async () => {
    app = await createTestApp({ TELEGRAM_BOT_TOKEN: TEST_BOT_TOKEN })
  })
  afterAll(() => app?.close())

  /** What the tenant's back office does: stamp blocked_at on the user (null lifts it). */
  async function setBlocked(userId: string, blockedAt: Date | null) {
    await app.db
      .updateTable('users')
      .set({ blocked_at: blockedAt })
      .where('id', '=', userId)
      .execute()
  }

  /** Blocks the user the access token belongs to; returns their id. */
  async function block(accessToken: string) {
    const { id } = (await getUser(app, accessToken)).json<{ id: string }>()
    await setBlocked(id, new Date())
    return id
  }

  it('every protected call of a live session answers 423 USER_BLOCKED', async () => {
    const pair = await signUp(app)
    await block(pair.access_token)

    expectProblem(await getUser(app, pair.access_token), 423, 'USER_BLOCKED')
    const patch = await app.inject({
      method: 'PATCH',
      url: '/api/v2/user/user-data',
      headers: headers(bearer(pair.access_token)),
      payload: { first_name: 'Mallory' },
    })
    expectProblem(patch, 423, 'USER_BLOCKED')
  })

  it('refreshing the session of a blocked account answers 423 USER_BLOCKED', async () => {
    const pair = await signUp(app)
    await block(pair.access_token)

    expectProblem(await refresh(app, pair.refresh_token), 423, 'USER_BLOCKED')
  })

  it('the right password of a blocked account answers 423 USER_BLOCKED', async () => {
    const email = uniqueEmail()
    await block((await signUp(app, { email })).access_token)

    expectProblem(await signIn(app, { email }), 423, 'USER_BLOCKED')
  })

  it('a wrong password of a blocked account answers 400 as for anyone: the block is not revealed', async () => {
    const email = uniqueEmail()
    await block((await signUp(app, { email })).access_token)

    expectProblem(
      await signIn(app, { email, password: 'not the password' }),
      400,
      'INVALID_CREDENTIALS',
    )
  })

  it('Telegram sign-in of a blocked account answers 423 USER_BLOCKED', async () => {
    const user = launchUser()
    const signedUp = await app.inject({
      method: 'POST',
      url: '/api/v2/auth/sign-up/telegram',
      headers: headers(),
      payload: { init_data: signedInitData({ user }), terms_accepted: true },
    })
    await block(signedUp.json<TokenPair>().access_token)

    const response = await app.inject({
      method: 'POST',
      url: '/api/v2/auth/sign-in/telegram',
      headers: headers(),
      payload: { init_data: signedInitData({ user }) },
    })

    expectProblem(response, 423, 'USER_BLOCKED')
  })

  it('unblocking lets the same session carry on', async () => {
    const pair = await signUp(app)
    const userId = await block(pair.access_token)
    expect((await getUser(app, pair.access_token)).statusCode).toBe(423)

    await setBlocked(userId, null)

    expect((await getUser(app, pair.access_token)).statusCode).toBe(200)
    expect((await refresh(app, pair.refresh_token)).statusCode).toBe(200)
  })
})
