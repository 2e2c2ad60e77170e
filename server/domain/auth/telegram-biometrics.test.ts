import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, expect, it } from 'vitest'
import type { TokenPair } from '../../../contract/auth.ts'
import {
  bearer,
  createTestApp,
  describeServer,
  expectProblem,
  headers,
} from '../../test-support.ts'
import { TELEGRAM_BIOMETRICS_TTL_DAYS } from './step-up.ts'
import { launchUser, signedInitData, TEST_BOT_TOKEN } from './telegram-test-support.ts'

/*
 * Issue 26, finding 5: enrolling Telegram biometrics needs launch data signed
 * in the last five minutes (not a session opened in the last five minutes
 * with older data), and the token it gives works in that session only, until
 * it expires.
 */

const minutesAgo = (minutes: number) => new Date(Date.now() - minutes * 60_000)
const telegram = headers({ 'x-app-env': 'telegram' })

describeServer('Telegram biometrics: fresh launch data, this session, for a while', () => {
  let app: FastifyInstance
  beforeAll(async () => {
    app = await createTestApp({ TELEGRAM_BOT_TOKEN: TEST_BOT_TOKEN })
  })
  afterAll(() => app?.close())

  const post = (url: string, token: string, payload?: object) =>
    app.inject({
      method: 'POST',
      url: `/api/v2${url}`,
      headers: { ...telegram, ...bearer(token) },
      ...(payload && { payload }),
    })

  /** A Telegram-only person, signed up just now; `signIn` opens another session of theirs. */
  async function telegramPerson() {
    const user = launchUser()
    const signedUp = await app.inject({
      method: 'POST',
      url: '/api/v2/auth/sign-up/telegram',
      headers: telegram,
      payload: { init_data: signedInitData({ user }), terms_accepted: true },
    })
    expect(signedUp.statusCode, signedUp.body).toBe(201)
    const signIn = async (authDate = new Date()) => {
      const response = await app.inject({
        method: 'POST',
        url: '/api/v2/auth/sign-in/telegram',
        headers: telegram,
        payload: { init_data: signedInitData({ user, authDate }) },
      })
      expect(response.statusCode, response.body).toBe(200)
      return response.json<TokenPair>().access_token
    }
    return { token: signedUp.json<TokenPair>().access_token, signIn }
  }

  async function enrol(token: string): Promise<string> {
    const enrolled = await post('/user/step-up/telegram-biometrics/enrol', token)
    expect(enrolled.statusCode, enrolled.body).toBe(200)
    return enrolled.json<{ token: string }>().token
  }

  it('launch data signed 50 minutes ago signs in, but is no fresh proof for enrolling', async () => {
    const person = await telegramPerson()
    const late = await person.signIn(minutesAgo(50))
    expectProblem(
      await post('/user/step-up/telegram-biometrics/enrol', late),
      403,
      'STEP_UP_REQUIRED',
    )
    const fresh = await person.signIn(minutesAgo(1))
    await enrol(fresh)
  })

  it('a token enrolled in one session proves nothing in another', async () => {
    const person = await telegramPerson()
    const biometric = await enrol(person.token)
    const other = await person.signIn()

    expectProblem(
      await post('/user/step-up/telegram-biometrics', other, { token: biometric }),
      400,
      'TELEGRAM_BIOMETRICS_INVALID',
    )
    const status = await app.inject({
      method: 'GET',
      url: '/api/v2/user/step-up',
      headers: { ...telegram, ...bearer(other) },
    })
    expect(status.json().methods).toEqual([])
    const proof = await post('/user/step-up/telegram-biometrics', person.token, {
      token: biometric,
    })
    expect(proof.statusCode, proof.body).toBe(200)
  })

  it(`a token expires after ${TELEGRAM_BIOMETRICS_TTL_DAYS} days`, async () => {
    const person = await telegramPerson()
    const biometric = await enrol(person.token)
    const row = await app.db
      .selectFrom('telegram_biometric_tokens')
      .select(['id', 'created_at', 'expires_at'])
      .orderBy('created_at', 'desc')
      .limit(1)
      .executeTakeFirstOrThrow()
    const lifetime = row.expires_at.getTime() - row.created_at.getTime()
    expect(Math.round(lifetime / 86_400_000)).toBe(TELEGRAM_BIOMETRICS_TTL_DAYS)

    await app.db
      .updateTable('telegram_biometric_tokens')
      .set({ expires_at: minutesAgo(1) })
      .where('id', '=', row.id)
      .execute()
    expectProblem(
      await post('/user/step-up/telegram-biometrics', person.token, { token: biometric }),
      400,
      'TELEGRAM_BIOMETRICS_INVALID',
    )
  })
})
