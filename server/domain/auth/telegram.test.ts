import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, expect, it } from 'vitest'
import type { TokenPair } from '../../../contract/auth.ts'
import type { User, UserData } from '../../../contract/user.ts'
import {
  bearer,
  createTestApp,
  describeServer,
  expectProblem,
  getUser,
  headers,
} from '../../test-support.ts'
import {
  launchUser,
  signedInitData,
  TEST_BOT_TOKEN,
  withUserField,
} from './telegram-test-support.ts'

function telegramSignIn(app: FastifyInstance, initData: string) {
  return app.inject({
    method: 'POST',
    url: '/api/v2/auth/sign-in/telegram',
    headers: headers({ 'x-app-env': 'telegram' }),
    payload: { init_data: initData },
  })
}

function telegramSignUp(
  app: FastifyInstance,
  initData: string,
  body: Record<string, unknown> = { terms_accepted: true },
) {
  return app.inject({
    method: 'POST',
    url: '/api/v2/auth/sign-up/telegram',
    headers: headers({ 'x-app-env': 'telegram' }),
    payload: { init_data: initData, ...body },
  })
}

const hoursAgo = (hours: number) => new Date(Date.now() - hours * 3_600_000)

describeServer('signing in and up with Telegram init data', () => {
  let app: FastifyInstance
  beforeAll(async () => {
    app = await createTestApp({ TELEGRAM_BOT_TOKEN: TEST_BOT_TOKEN })
  })
  afterAll(() => app?.close())

  it('signing up creates the account from the launch user and answers 201 with a token pair', async () => {
    const user = launchUser({ language_code: 'ru', is_premium: true })

    const response = await telegramSignUp(app, signedInitData({ user }))

    expect(response.statusCode, response.body).toBe(201)
    const pair = response.json<TokenPair>()
    expect(pair).toMatchObject({ token_type: 'bearer', expires_in: 900 })
    const me = (await getUser(app, pair.access_token)).json<User>()
    expect(me).toMatchObject({ telegram_id: String(user.id), email: null, phone: null })
    const data = await app.inject({
      method: 'GET',
      url: '/api/v2/user/user-data',
      headers: headers(bearer(pair.access_token)),
    })
    expect(data.json<UserData>()).toMatchObject({
      first_name: user.first_name,
      last_name: user.last_name,
      username: user.username,
      language: 'ru',
      is_premium: true,
      photo_url: user.photo_url,
    })
  })

  it('a signed-up Telegram user signs in with fresh init data: 200 and a new session', async () => {
    const user = launchUser()
    const first = (await telegramSignUp(app, signedInitData({ user }))).json<TokenPair>()

    const response = await telegramSignIn(app, signedInitData({ user }))

    expect(response.statusCode, response.body).toBe(200)
    const second = response.json<TokenPair>()
    expect(second.refresh_token).not.toBe(first.refresh_token)
    expect((await getUser(app, second.access_token)).json<User>().telegram_id).toBe(String(user.id))
  })

  it('an unknown Telegram user answers 404 USER_NOT_FOUND, so the app can offer sign-up', async () => {
    expectProblem(await telegramSignIn(app, signedInitData()), 404, 'USER_NOT_FOUND')
  })

  it('init data with one field changed answers 401 TELEGRAM_INIT_DATA_INVALID', async () => {
    const user = launchUser()
    await telegramSignUp(app, signedInitData({ user }))
    const victim = launchUser()
    await telegramSignUp(app, signedInitData({ user: victim }))

    // Someone re-uses their own signed data with the victim's id.
    const forged = withUserField(signedInitData({ user }), 'id', victim.id)

    expectProblem(await telegramSignIn(app, forged), 401, 'TELEGRAM_INIT_DATA_INVALID')
    expectProblem(await telegramSignUp(app, forged), 401, 'TELEGRAM_INIT_DATA_INVALID')
  })

  it('init data older than TELEGRAM_AUTH_MAX_AGE answers 401 TELEGRAM_INIT_DATA_INVALID', async () => {
    const user = launchUser()
    await telegramSignUp(app, signedInitData({ user }))

    const stale = signedInitData({ user, authDate: hoursAgo(2) })

    const problem = expectProblem(
      await telegramSignIn(app, stale),
      401,
      'TELEGRAM_INIT_DATA_INVALID',
    )
    expect(problem.detail).toMatch(/too old/)
  })

  it('sign-up refuses launch data older than TELEGRAM_AUTH_MAX_AGE too, creating nothing', async () => {
    const user = launchUser()
    const stale = signedInitData({ user, authDate: hoursAgo(1.1) })

    expectProblem(await telegramSignUp(app, stale), 401, 'TELEGRAM_INIT_DATA_INVALID')
    expectProblem(await telegramSignIn(app, signedInitData({ user })), 404, 'USER_NOT_FOUND')
  })

  it('launch data signs in once: the same data again answers 401 TELEGRAM_INIT_DATA_USED', async () => {
    const user = launchUser()
    const signUpData = signedInitData({ user })
    expect((await telegramSignUp(app, signUpData)).statusCode).toBe(201)
    expectProblem(await telegramSignIn(app, signUpData), 401, 'TELEGRAM_INIT_DATA_USED')

    const launch = signedInitData({ user })
    expect((await telegramSignIn(app, launch)).statusCode).toBe(200)
    expectProblem(await telegramSignIn(app, launch), 401, 'TELEGRAM_INIT_DATA_USED')
    // The same fields in another order are the same launch data.
    const reordered = new URLSearchParams([...new URLSearchParams(launch)].reverse()).toString()
    expect(reordered).not.toBe(launch)
    expectProblem(await telegramSignIn(app, reordered), 401, 'TELEGRAM_INIT_DATA_USED')
  })

  it('two sign-ins racing with one launch data open one session', async () => {
    const user = launchUser()
    await telegramSignUp(app, signedInitData({ user }))
    const launch = signedInitData({ user })

    const answers = await Promise.all([telegramSignIn(app, launch), telegramSignIn(app, launch)])

    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 401])
  })

  it('an unknown user’s 404 spends nothing: the same launch data then signs up', async () => {
    const launch = signedInitData()

    expectProblem(await telegramSignIn(app, launch), 404, 'USER_NOT_FOUND')
    expect((await telegramSignUp(app, launch)).statusCode).toBe(201)
  })

  it('init data signed for another bot answers 401 TELEGRAM_INIT_DATA_INVALID', async () => {
    const initData = signedInitData({ botToken: '7000000002:not-our-bot' })

    expectProblem(await telegramSignUp(app, initData), 401, 'TELEGRAM_INIT_DATA_INVALID')
  })

  it('signing up twice as the same Telegram user answers 409 TELEGRAM_USER_EXISTS', async () => {
    const user = launchUser()
    expect((await telegramSignUp(app, signedInitData({ user }))).statusCode).toBe(201)

    expectProblem(await telegramSignUp(app, signedInitData({ user })), 409, 'TELEGRAM_USER_EXISTS')
  })

  it('two sign-ups racing for one Telegram user make one account', async () => {
    const user = launchUser()

    const answers = await Promise.all([
      telegramSignUp(app, signedInitData({ user })),
      telegramSignUp(app, signedInitData({ user })),
    ])

    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([201, 409])
  })

  it('sign-up without terms_accepted: true answers 422 naming the field', async () => {
    const initData = signedInitData()

    for (const body of [{}, { terms_accepted: false }]) {
      const problem = expectProblem(
        await telegramSignUp(app, initData, body),
        422,
        'VALIDATION_FAILED',
      )
      expect(problem.errors).toContainEqual({
        field: '/body/terms_accepted',
        message: expect.any(String),
      })
    }
    // Nothing was created: the same user can still sign up.
    expect((await telegramSignUp(app, initData)).statusCode).toBe(201)
  })

  it('an empty init_data answers 422 naming the field', async () => {
    const problem = expectProblem(await telegramSignIn(app, ''), 422, 'VALIDATION_FAILED')

    expect(problem.errors).toEqual([{ field: '/body/init_data', message: expect.any(String) }])
  })
})

describeServer('Telegram sign-in on a server without a bot token', () => {
  let app: FastifyInstance
  beforeAll(async () => {
    app = await createTestApp()
  })
  afterAll(() => app?.close())

  it('both Telegram calls answer 503 TELEGRAM_NOT_CONFIGURED', async () => {
    const initData = signedInitData()

    expectProblem(await telegramSignIn(app, initData), 503, 'TELEGRAM_NOT_CONFIGURED')
    expectProblem(await telegramSignUp(app, initData), 503, 'TELEGRAM_NOT_CONFIGURED')
  })
})
