import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, expect, it } from 'vitest'
import type { TokenPair } from '../../../contract/auth.ts'
import {
  createTestApp,
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
import {
  digitsOf,
  latestCode,
  outbox,
  sendPhoneCode,
  uniquePhone,
  verifyPhone,
  wrongCode,
} from '../otp/otp-test-support.ts'

/*
 * Issue 26, finding 7: a forgotten password is reset with a one-time code to
 * the e-mail or phone the account signs in with. Asking answers the same for
 * anyone; the code's wrong guesses count against resets of that contact only.
 */

const NEW_PASSWORD = 'a quite different passphrase'

describeServer('resetting a forgotten password', () => {
  let app: FastifyInstance
  beforeAll(async () => {
    app = await createTestApp({ AUTH_RATE_LIMIT_PER_EMAIL: '3' })
  })
  afterAll(() => app?.close())

  const ask = (body: object) =>
    app.inject({
      method: 'POST',
      url: '/api/v2/auth/password/reset',
      headers: headers(),
      payload: body,
    })
  const confirm = (body: object) =>
    app.inject({
      method: 'POST',
      url: '/api/v2/auth/password/reset/confirm',
      headers: headers(),
      payload: body,
    })
  /** Asks for a reset code to `email` and reads it from the sandbox outbox. */
  async function resetCode(email: string): Promise<string> {
    expect((await ask({ email })).statusCode).toBe(202)
    await app.jobs.runDue()
    const [newest] = await outbox(app, email)
    expect(newest?.purpose).toBe('password_reset')
    return newest?.code ?? ''
  }

  it('answers the same for a contact with an account and one without; only the first gets a code', async () => {
    const known = uniqueEmail('known')
    await signUp(app, { email: known, kyc: false })
    const unknown = uniqueEmail('known')

    const [forKnown, forUnknown] = [await ask({ email: known }), await ask({ email: unknown })]
    await app.jobs.runDue()

    expect(forKnown.statusCode).toBe(202)
    expect(forUnknown.statusCode).toBe(202)
    expect(forUnknown.json()).toEqual({
      ...forKnown.json(),
      destination: expect.stringMatching(/^k•••@example\.com$/),
    })
    expect(forKnown.headers['content-length']).toBe(forUnknown.headers['content-length'])
    const [message] = await outbox(app, known)
    expect(message).toMatchObject({ purpose: 'password_reset', channel: 'email' })
    expect(message?.subject).toBe('Reset your Finplatform password')
    expect(await outbox(app, unknown)).toEqual([])
  })

  it('the code sets the new password, ends every earlier session and signs in', async () => {
    const email = uniqueEmail()
    const first = await signUp(app, { email, kyc: false })
    const second = (await signIn(app, { email })).json<TokenPair>()
    const token = await resetCode(email)

    const reset = await confirm({ email, token, new_password: NEW_PASSWORD })

    expect(reset.statusCode, reset.body).toBe(200)
    const pair = reset.json<TokenPair>()
    expect((await getUser(app, pair.access_token)).statusCode).toBe(200)
    for (const earlier of [first, second]) {
      expect((await getUser(app, earlier.access_token)).statusCode).toBe(401)
      expect((await refresh(app, earlier.refresh_token)).statusCode).toBe(401)
    }
    expect((await signIn(app, { email })).statusCode).toBe(400)
    expect((await signIn(app, { email, password: NEW_PASSWORD })).statusCode).toBe(200)
    const events = await app.db
      .selectFrom('events')
      .innerJoin('users', 'users.id', 'events.user_id')
      .select(['events.payload'])
      .where('users.email', '=', email)
      .where('events.kind', '=', 'security.password_changed')
      .execute()
    expect(events).toEqual([{ payload: { via: 'reset', changed_at: expect.any(String) } }])
    // The code worked once.
    expectProblem(await confirm({ email, token, new_password: NEW_PASSWORD }), 400, 'OTP_INVALID')
  })

  it('a weak password is refused and leaves the code usable', async () => {
    const email = uniqueEmail('grace')
    await signUp(app, { email, kyc: false })
    const token = await resetCode(email)

    const weak = expectProblem(
      await confirm({ email, token, new_password: `${email.split('@')[0]}!` }),
      422,
      'PASSWORD_TOO_WEAK',
    )
    expect(weak.errors?.[0]?.field).toBe('/body/new_password')
    expect((await confirm({ email, token, new_password: NEW_PASSWORD })).statusCode).toBe(200)
  })

  it('by phone, for an account that signs in with a phone', async () => {
    const phone = uniquePhone()
    await sendPhoneCode(app, phone)
    await verifyPhone(app, phone, await latestCode(app, digitsOf(phone)))
    expect((await ask({ phone })).statusCode).toBe(202)
    await app.jobs.runDue()
    const token = await latestCode(app, digitsOf(phone))

    const reset = await confirm({ phone, token, new_password: NEW_PASSWORD })

    expect(reset.statusCode, reset.body).toBe(200)
  })

  it('wrong codes block resets of that contact, not its second look', async () => {
    const email = uniqueEmail()
    const { access_token } = await signUp(app, { email, kyc: false })
    const token = await resetCode(email)
    for (let guess = 1; guess <= 5; guess++) {
      const answer = await confirm({ email, token: wrongCode(token), new_password: NEW_PASSWORD })
      expect(answer.statusCode, answer.body).toBe(guess < 5 ? 400 : 423)
    }
    expectProblem(await confirm({ email, token, new_password: NEW_PASSWORD }), 423, 'OTP_BLOCKED')
    await stepUp(app, access_token)
  })

  it('a contact with no account takes no code, and the guess counts', async () => {
    const email = uniqueEmail()
    for (let guess = 1; guess <= 5; guess++) {
      const answer = await confirm({ email, token: '123456', new_password: NEW_PASSWORD })
      expect(answer.statusCode, answer.body).toBe(guess < 5 ? 400 : 423)
    }
  })

  it('asking is limited per contact, known or not, the same way', async () => {
    const known = uniqueEmail()
    await signUp(app, { email: known, kyc: false })
    for (const email of [known, uniqueEmail()]) {
      for (let call = 1; call <= 3; call++) expect((await ask({ email })).statusCode).toBe(202)
      expectProblem(await ask({ email }), 429, 'RATE_LIMITED')
    }
  })

  it('names an e-mail or a phone, not both, not neither', async () => {
    for (const body of [{}, { email: uniqueEmail(), phone: uniquePhone() }, { email: 'nope' }]) {
      expectProblem(await ask(body), 422, 'VALIDATION_FAILED')
    }
    expectProblem(await ask({ phone: '12' }), 422, 'VALIDATION_FAILED')
  })
})
