import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, expect, it } from 'vitest'
import type { TokenPair } from '../../../contract/auth.ts'
import type { OtpSent } from '../../../contract/otp.ts'
import type { User } from '../../../contract/user.ts'
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
import {
  digitsOf,
  latestCode,
  outbox,
  sendEmailCode,
  uniquePhone,
  verifyEmail,
  wrongCode,
} from './otp-test-support.ts'

type Contact = { email: string } | { phone: string }

const path = (contact: Contact) =>
  'email' in contact ? '/api/v2/user/email' : '/api/v2/user/phone'

function requestChange(app: FastifyInstance, pair: TokenPair, contact: Contact) {
  return app.inject({
    method: 'PATCH',
    url: path(contact),
    headers: headers(bearer(pair.access_token)),
    payload: contact,
  })
}

function confirmChange(app: FastifyInstance, pair: TokenPair, contact: Contact, token: string) {
  return app.inject({
    method: 'POST',
    url: path(contact),
    headers: headers(bearer(pair.access_token)),
    payload: { ...contact, token },
  })
}

async function userOf(app: FastifyInstance, pair: TokenPair): Promise<User> {
  const response = await getUser(app, pair.access_token)
  expect(response.statusCode, response.body).toBe(200)
  return response.json<User>()
}

describeServer('changing the e-mail or phone in two steps', () => {
  let app: FastifyInstance
  beforeAll(async () => {
    app = await createTestApp()
  })
  afterAll(() => app?.close())

  it('changing the e-mail: a code goes to the new address, and confirming it makes the change', async () => {
    const old = uniqueEmail('old')
    const pair = await signUp(app, { stepUp: true, email: old, kyc: false })
    const fresh = uniqueEmail('new')

    const requested = await requestChange(app, pair, { email: fresh.toUpperCase() })
    expect(requested.statusCode, requested.body).toBe(202)
    expect(requested.json<OtpSent>()).toEqual({
      channel: 'email',
      destination: 'n•••@example.com',
      expires_in: 300,
      resend_in: 60,
    })
    const [message] = await outbox(app, fresh)
    expect(message).toMatchObject({
      to: fresh,
      purpose: 'change_email',
      subject: 'Confirm your new e-mail address for Finplatform',
    })
    // Only the second look's code went to the old address, before the request.
    expect((await outbox(app, old)).map((m) => m.purpose)).toEqual(['step_up'])
    // Nothing changes before the confirmation.
    expect((await userOf(app, pair)).email).toBe(old)

    const confirmed = await confirmChange(app, pair, { email: fresh }, message!.code)
    expect(confirmed.statusCode, confirmed.body).toBe(200)
    const user = confirmed.json<User>()
    expect(user).toEqual({
      id: (await userOf(app, pair)).id,
      email: fresh,
      phone: null,
      telegram_id: null,
      kyc_status: 'UNVERIFIED',
      created_at: expect.any(String),
    })
    expect((await signIn(app, { email: fresh })).statusCode).toBe(200)
    expectProblem(await signIn(app, { email: old }), 400, 'INVALID_CREDENTIALS')
  })

  it('adding a phone to an account that had none, typed in any format', async () => {
    const pair = await signUp(app, { stepUp: true })
    const typed = uniquePhone()
    const digits = digitsOf(typed)
    const requested = await requestChange(app, pair, { phone: typed })
    expect(requested.statusCode, requested.body).toBe(202)
    expect(requested.json<OtpSent>()).toMatchObject({
      channel: 'sms',
      destination: `•••••••${digits.slice(-4)}`,
    })
    const [message] = await outbox(app, digits)
    expect(message).toMatchObject({ channel: 'sms', purpose: 'change_phone', subject: null })

    const confirmed = await confirmChange(app, pair, { phone: `+${digits}` }, message!.code)
    expect(confirmed.statusCode, confirmed.body).toBe(200)
    expect(confirmed.json<User>().phone).toBe(digits)
  })

  it('an e-mail or phone of another account answers 409 at the request, and no code is sent', async () => {
    const taken = uniqueEmail()
    await signUp(app, { email: taken })
    const owner = await signUp(app, { stepUp: true })
    const phone = uniquePhone()
    await requestChange(app, owner, { phone })
    await confirmChange(app, owner, { phone }, await latestCode(app, phone))

    const pair = await signUp(app, { stepUp: true })
    expectProblem(
      await requestChange(app, pair, { email: taken.toUpperCase() }),
      409,
      'EMAIL_TAKEN',
    )
    expectProblem(await requestChange(app, pair, { phone: digitsOf(phone) }), 409, 'PHONE_TAKEN')
    expect(await outbox(app, taken)).toEqual([])
    expect(await outbox(app, phone)).toHaveLength(1)
  })

  it('an address another account takes between request and confirmation answers 409 at the confirmation, and nothing changes', async () => {
    const email = uniqueEmail()
    const pair = await signUp(app, { stepUp: true, email })
    const wanted = uniqueEmail('wanted')
    expect((await requestChange(app, pair, { email: wanted })).statusCode).toBe(202)
    const code = await latestCode(app, wanted)
    await signUp(app, { email: wanted })

    expectProblem(await confirmChange(app, pair, { email: wanted }, code), 409, 'EMAIL_TAKEN')
    expect((await userOf(app, pair)).email).toBe(email)
  })

  it('a phone another account takes meanwhile answers 409 PHONE_TAKEN at the confirmation', async () => {
    const first = await signUp(app, { stepUp: true })
    const second = await signUp(app, { stepUp: true })
    const phone = uniquePhone()
    await requestChange(app, first, { phone })
    const code = await latestCode(app, phone)
    // Another path (support staff, a racing request) gives the number to the second account.
    const secondId = (await userOf(app, second)).id
    await app.db
      .updateTable('users')
      .set({ phone: digitsOf(phone) })
      .where('id', '=', secondId)
      .execute()
    expectProblem(await confirmChange(app, first, { phone }, code), 409, 'PHONE_TAKEN')
    expect((await userOf(app, first)).phone).toBeNull()
  })

  it('on success every other session of the account ends, and the current one survives', async () => {
    const email = uniqueEmail()
    const current = await signUp(app, { stepUp: true, email })
    const laptop = (await signIn(app, { email })).json<TokenPair>()
    const tablet = (await signIn(app, { email })).json<TokenPair>()
    const stranger = await signUp(app, { stepUp: true })

    const fresh = uniqueEmail()
    await requestChange(app, current, { email: fresh })
    const confirmed = await confirmChange(
      app,
      current,
      { email: fresh },
      await latestCode(app, fresh),
    )
    expect(confirmed.statusCode, confirmed.body).toBe(200)

    for (const ended of [laptop, tablet]) {
      expectProblem(await getUser(app, ended.access_token), 401, 'UNAUTHORIZED')
      expectProblem(await refresh(app, ended.refresh_token), 401, 'INVALID_REFRESH_TOKEN')
    }
    expect((await getUser(app, current.access_token)).statusCode).toBe(200)
    expect((await refresh(app, current.refresh_token)).statusCode).toBe(200)
    expect((await getUser(app, stranger.access_token)).statusCode).toBe(200)

    const sessions = await app.db
      .selectFrom('sessions')
      .select(['revoke_reason'])
      .where('user_id', '=', (await userOf(app, current)).id)
      .orderBy('created_at')
      .execute()
    expect(sessions.map((session) => session.revoke_reason)).toEqual([
      null,
      'contact_changed',
      'contact_changed',
    ])
  })

  it('a sign-in code cannot confirm an e-mail change, nor a change code sign in', async () => {
    const pair = await signUp(app, { stepUp: true })
    const signInAddress = uniqueEmail()
    await sendEmailCode(app, signInAddress)
    const signInCode = await latestCode(app, signInAddress)
    expectProblem(
      await confirmChange(app, pair, { email: signInAddress }, signInCode),
      400,
      'OTP_INVALID',
    )

    const changeAddress = uniqueEmail()
    await requestChange(app, pair, { email: changeAddress })
    const changeCode = await latestCode(app, changeAddress)
    expectProblem(await verifyEmail(app, changeAddress, changeCode), 400, 'OTP_INVALID')
    // Each code still does its own job.
    expect((await verifyEmail(app, signInAddress, signInCode)).statusCode).toBe(200)
    expect((await confirmChange(app, pair, { email: changeAddress }, changeCode)).statusCode).toBe(
      200,
    )
  })

  it('a change code works only for the account that asked for it', async () => {
    const asker = await signUp(app, { stepUp: true })
    const other = await signUp(app, { stepUp: true })
    const fresh = uniqueEmail()
    await requestChange(app, asker, { email: fresh })
    const code = await latestCode(app, fresh)
    expectProblem(await confirmChange(app, other, { email: fresh }, code), 400, 'OTP_INVALID')
    expect((await confirmChange(app, asker, { email: fresh }, code)).statusCode).toBe(200)
  })

  it('a wrong code at the confirmation answers 400 with the attempts left, and a used one cannot be replayed', async () => {
    const pair = await signUp(app, { stepUp: true })
    const fresh = uniqueEmail()
    await requestChange(app, pair, { email: fresh })
    const code = await latestCode(app, fresh)
    const wrong = expectProblem(
      await confirmChange(app, pair, { email: fresh }, wrongCode(code)),
      400,
      'OTP_INVALID',
    )
    expect(wrong.attempts_left).toBe(4)
    expect((await confirmChange(app, pair, { email: fresh }, code)).statusCode).toBe(200)
    expectProblem(await confirmChange(app, pair, { email: fresh }, code), 400, 'OTP_INVALID')
  })

  it('the current e-mail as the "new" one answers 422 naming /body/email', async () => {
    const email = uniqueEmail()
    const pair = await signUp(app, { stepUp: true, email })
    const problem = expectProblem(
      await requestChange(app, pair, { email }),
      422,
      'VALIDATION_FAILED',
    )
    expect(problem.errors).toEqual([{ field: '/body/email', message: 'is already your e-mail' }])
  })

  it('a new phone that cannot be a phone number answers 422', async () => {
    const pair = await signUp(app, { stepUp: true })
    const problem = expectProblem(
      await requestChange(app, pair, { phone: '+1 23' }),
      422,
      'VALIDATION_FAILED',
    )
    expect(problem.errors).toEqual([
      { field: '/body/phone', message: 'is not a valid phone number' },
    ])
  })

  it('asking twice within a minute answers 429 RATE_LIMITED with Retry-After', async () => {
    const pair = await signUp(app, { stepUp: true })
    const fresh = uniqueEmail()
    expect((await requestChange(app, pair, { email: fresh })).statusCode).toBe(202)
    const again = await requestChange(app, pair, { email: fresh })
    expectProblem(again, 429, 'RATE_LIMITED')
    expect(Number(again.headers['retry-after'])).toBeGreaterThan(0)
  })

  it('a refused delivery answers 502 MESSAGE_NOT_DELIVERED', async () => {
    const pair = await signUp(app, { stepUp: true })
    expectProblem(
      await requestChange(app, pair, { email: 'someone@fail.test' }),
      502,
      'MESSAGE_NOT_DELIVERED',
    )
  })

  it('without a session both steps answer 401', async () => {
    for (const method of ['PATCH', 'POST'] as const) {
      const response = await app.inject({
        method,
        url: '/api/v2/user/email',
        headers: headers(),
        payload: { email: uniqueEmail(), token: '123456' },
      })
      expectProblem(response, 401, 'UNAUTHORIZED')
    }
  })
})
