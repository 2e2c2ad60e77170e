import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, expect, it } from 'vitest'
import type { TokenPair } from '../../../contract/auth.ts'
import type { PasskeyList, SessionList } from '../../../contract/security.ts'
import {
  bearer,
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
import { eventKinds, userIdOf } from '../events/events-test-support.ts'
import { createCredential } from './passkey-test-support.ts'

/*
 * Issue 26, findings 6 and 7 (their halves here): a stolen access token — a
 * session that never proved its person is there — neither removes the
 * person's passkey nor signs the owner out of their other sessions.
 */
describeServer('the account stays the owner’s: passkeys and sessions', () => {
  let app: FastifyInstance
  beforeAll(async () => {
    app = await createTestApp({ OTP_RESEND_INTERVAL: '0' })
  })
  afterAll(() => app?.close())

  const v2 = (method: 'GET' | 'POST' | 'DELETE', url: string, token: string, payload?: object) =>
    app.inject({
      method,
      url: `/api/v2${url}`,
      headers: headers(bearer(token)),
      ...(payload && { payload }),
    })

  /** The owner, signed in twice (this session and another one), and a thief's third session. */
  async function ownerAndThief() {
    const email = uniqueEmail('owner')
    const owner = await signUp(app, { email, kyc: false })
    const elsewhere = (await signIn(app, { email })).json<TokenPair>()
    const thief = (await signIn(app, { email })).json<TokenPair>()
    return { owner, elsewhere, thief }
  }

  it('a stolen token cannot remove the person’s passkey; removing one, stepped up, is told', async () => {
    const { owner, thief } = await ownerAndThief()
    await stepUp(app, owner.access_token)
    const options = await v2('POST', '/user/passkeys/options', owner.access_token)
    const { response } = createCredential(options.json(), {
      origin: 'http://localhost:8080',
      rpId: 'localhost',
    })
    const added = await v2('POST', '/user/passkeys', owner.access_token, {
      response,
      name: 'Laptop',
    })
    expect(added.statusCode, added.body).toBe(201)
    const passkeyId = added.json<{ id: string }>().id

    const removing = await v2('DELETE', `/user/passkeys/${passkeyId}`, thief.access_token)
    expectProblem(removing, 403, 'STEP_UP_REQUIRED')
    const list = (await v2('GET', '/user/passkeys', owner.access_token)).json<PasskeyList>()
    expect(list.data.map((passkey) => passkey.id)).toEqual([passkeyId])

    const removed = await v2('DELETE', `/user/passkeys/${passkeyId}`, owner.access_token)
    expect(removed.statusCode).toBe(204)
    expect(await eventKinds(app, await userIdOf(app, owner))).toEqual([
      'security.passkey_added',
      'security.passkey_removed',
    ])
  })

  it('a stolen token cannot sign the owner out of their other sessions, all or one', async () => {
    const { owner, elsewhere, thief } = await ownerAndThief()
    const sessions = (await v2('GET', '/user/sessions', thief.access_token)).json<SessionList>()
    const others = sessions.data.filter((session) => !session.current)
    expect(others).toHaveLength(2)

    expectProblem(
      await v2('POST', '/user/sessions/sign-out-others', thief.access_token),
      403,
      'STEP_UP_REQUIRED',
    )
    for (const session of others) {
      expectProblem(
        await v2('DELETE', `/user/sessions/${session.id}`, thief.access_token),
        403,
        'STEP_UP_REQUIRED',
      )
    }
    // Every session lives on: the owner's two still refresh.
    for (const pair of [owner, elsewhere]) {
      expect((await refresh(app, pair.refresh_token)).statusCode).toBe(200)
    }
  })

  it('signing oneself out needs no proof; signing the others out does, and then works', async () => {
    const { owner, elsewhere, thief } = await ownerAndThief()
    const mine = (await v2('GET', '/user/sessions', thief.access_token))
      .json<SessionList>()
      .data.find((session) => session.current)!
    expect((await v2('DELETE', `/user/sessions/${mine.id}`, thief.access_token)).statusCode).toBe(
      204,
    )
    expectProblem(await v2('GET', '/user', thief.access_token), 401, 'UNAUTHORIZED')

    await stepUp(app, owner.access_token)
    const ended = await v2('POST', '/user/sessions/sign-out-others', owner.access_token)
    expect(ended.json()).toEqual({ ended: 1, removed: [] })
    expectProblem(await refresh(app, elsewhere.refresh_token), 401, 'INVALID_REFRESH_TOKEN')
  })
})
