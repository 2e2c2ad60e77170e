import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, expect, it } from 'vitest'
import type { TokenPair } from '../../../contract/auth.ts'
import type { OtpSent } from '../../../contract/otp.ts'
import type { User } from '../../../contract/user.ts'
import {
  createTenant,
  createTestApp,
  describeServer,
  expectProblem,
  getUser,
  headers,
  signUp,
  uniqueEmail,
} from '../../test-support.ts'
import {
  digitsOf,
  latestCode,
  outbox,
  sendEmailCode,
  sendPhoneCode,
  uniquePhone,
  verifyEmail,
  verifyPhone,
  wrongCode,
} from './otp-test-support.ts'

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

async function userOf(app: FastifyInstance, pair: TokenPair): Promise<User> {
  const response = await getUser(app, pair.access_token)
  expect(response.statusCode, response.body).toBe(200)
  return response.json<User>()
}

function usersWith(app: FastifyInstance, column: 'email' | 'phone', value: string) {
  return app.db.selectFrom('users').selectAll().where(column, '=', value).execute()
}

describeServer('signing in with a one-time code (default settings)', () => {
  let app: FastifyInstance
  beforeAll(async () => {
    app = await createTestApp()
  })
  afterAll(() => app?.close())

  it('an e-mail code signs a new address up: the account exists only once the code is used', async () => {
    const email = uniqueEmail('otp')
    const sent = await sendEmailCode(app, email)
    expect(sent.statusCode, sent.body).toBe(200)
    expect(sent.json<OtpSent>()).toEqual({
      channel: 'email',
      destination: `o•••@example.com`,
      expires_in: 300,
      resend_in: 60,
    })
    expect(await usersWith(app, 'email', email)).toHaveLength(0)

    const verified = await verifyEmail(app, email, await latestCode(app, email))
    expect(verified.statusCode, verified.body).toBe(200)
    const pair = verified.json<TokenPair>()
    expect(pair).toMatchObject({ token_type: 'bearer', expires_in: 900 })
    expect(await userOf(app, pair)).toMatchObject({ email, phone: null, kyc_status: 'UNVERIFIED' })
    const profile = await app.inject({
      method: 'GET',
      url: '/api/v2/user/user-data',
      headers: headers({ authorization: `Bearer ${pair.access_token}` }),
    })
    expect(profile.statusCode, profile.body).toBe(200)
  })

  it('an e-mail is one identifier whatever its letter case', async () => {
    const email = uniqueEmail('Case')
    expect((await sendEmailCode(app, email.toUpperCase())).statusCode).toBe(200)
    const [message] = await outbox(app, email.toUpperCase())
    expect(message?.to).toBe(email.toLowerCase())
    const verified = await verifyEmail(app, email, message!.code)
    expect(verified.statusCode, verified.body).toBe(200)
    expect((await userOf(app, verified.json())).email).toBe(email.toLowerCase())
  })

  it('a phone code signs in, whatever format the number is typed in', async () => {
    const typed = uniquePhone()
    const digits = digitsOf(typed)
    const sent = await sendPhoneCode(app, typed)
    expect(sent.statusCode, sent.body).toBe(200)
    expect(sent.json<OtpSent>()).toEqual({
      channel: 'sms',
      destination: `•••••••${digits.slice(-4)}`,
      expires_in: 300,
      resend_in: 60,
    })
    const [message] = await outbox(app, `+${digits}`)
    expect(message).toMatchObject({ channel: 'sms', to: digits, purpose: 'sign_in', subject: null })

    const verified = await verifyPhone(app, digits, message!.code)
    expect(verified.statusCode, verified.body).toBe(200)
    expect(await userOf(app, verified.json())).toMatchObject({ phone: digits, email: null })
    expect(await usersWith(app, 'phone', digits)).toHaveLength(1)
  })

  it('a number that cannot be a phone number answers 422 saying so, when sending and when verifying', async () => {
    for (const phone of ['12345', 'call me maybe', '+999 123 456 789']) {
      const problem = expectProblem(await sendPhoneCode(app, phone), 422, 'VALIDATION_FAILED')
      expect(problem.errors).toEqual([
        { field: '/body/phone', message: 'is not a valid phone number' },
      ])
    }
    expectProblem(await verifyPhone(app, '12345', '123456'), 422, 'VALIDATION_FAILED')
  })

  it('an existing account signs in with a code to its e-mail: the same account, no second one', async () => {
    const email = uniqueEmail()
    const password = await signUp(app, { email })
    const before = await userOf(app, password)
    expect((await sendEmailCode(app, email, { create_user: false })).statusCode).toBe(200)
    const verified = await verifyEmail(app, email, await latestCode(app, email))
    expect(verified.statusCode, verified.body).toBe(200)
    expect((await userOf(app, verified.json())).id).toBe(before.id)
    expect(await usersWith(app, 'email', email)).toHaveLength(1)
  })

  it('create_user: false for an unknown address answers 404 USER_NOT_FOUND and sends nothing', async () => {
    const email = uniqueEmail()
    expectProblem(await sendEmailCode(app, email, { create_user: false }), 404, 'USER_NOT_FOUND')
    expectProblem(
      await sendPhoneCode(app, uniquePhone(), { create_user: false }),
      404,
      'USER_NOT_FOUND',
    )
    expect(await outbox(app, email)).toEqual([])
  })

  it('a code works once: using it again answers 400 OTP_INVALID', async () => {
    const email = uniqueEmail()
    await sendEmailCode(app, email)
    const code = await latestCode(app, email)
    expect((await verifyEmail(app, email, code)).statusCode).toBe(200)
    const again = expectProblem(await verifyEmail(app, email, code), 400, 'OTP_INVALID')
    expect(again.attempts_left).toBe(4)
  })

  it('a wrong code answers 400 OTP_INVALID with the attempts left, and the right code still works', async () => {
    const email = uniqueEmail()
    await sendEmailCode(app, email)
    const code = await latestCode(app, email)
    const first = expectProblem(await verifyEmail(app, email, wrongCode(code)), 400, 'OTP_INVALID')
    expect(first.attempts_left).toBe(4)
    const second = expectProblem(await verifyEmail(app, email, wrongCode(code)), 400, 'OTP_INVALID')
    expect(second.attempts_left).toBe(3)
    expect((await verifyEmail(app, email, code)).statusCode).toBe(200)
  })

  it('a code for an address nobody asked a code for is just wrong: 400 OTP_INVALID', async () => {
    expectProblem(await verifyEmail(app, uniqueEmail(), '123456'), 400, 'OTP_INVALID')
  })

  it('five wrong codes block the address: 423 OTP_BLOCKED with blocked_until, even for the right code, and no code is sent meanwhile', async () => {
    const email = uniqueEmail()
    await sendEmailCode(app, email)
    const code = await latestCode(app, email)
    for (const left of [4, 3, 2, 1]) {
      const problem = expectProblem(
        await verifyEmail(app, email, wrongCode(code)),
        400,
        'OTP_INVALID',
      )
      expect(problem.attempts_left).toBe(left)
    }
    const startedAt = Date.now()
    const blocked = await verifyEmail(app, email, wrongCode(code))
    const answeredAt = Date.now()
    const problem = expectProblem(blocked, 423, 'OTP_BLOCKED')
    const until = Date.parse(problem.blocked_until!)
    expect(problem.blocked_until).toBe(new Date(until).toISOString())
    // The server takes its clock inside the request: between our two readings.
    expect(until).toBeGreaterThanOrEqual(startedAt + 15 * 60_000)
    expect(until).toBeLessThanOrEqual(answeredAt + 15 * 60_000)
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(14 * 60)

    expectProblem(await verifyEmail(app, email, code), 423, 'OTP_BLOCKED')
    const send = expectProblem(await sendEmailCode(app, email), 423, 'OTP_BLOCKED')
    expect(send.blocked_until).toBe(problem.blocked_until)
    expect(await outbox(app, email)).toHaveLength(1)
    // Only this address: another one is unaffected.
    expect((await sendEmailCode(app, uniqueEmail())).statusCode).toBe(200)
  })

  it('a second code within a minute answers 429 RATE_LIMITED with Retry-After, for that identifier only', async () => {
    const email = uniqueEmail()
    expect((await sendEmailCode(app, email)).statusCode).toBe(200)
    const again = await sendEmailCode(app, email.toUpperCase())
    const problem = expectProblem(again, 429, 'RATE_LIMITED')
    const retryAfter = Number(again.headers['retry-after'])
    expect(retryAfter).toBeGreaterThan(50)
    expect(retryAfter).toBeLessThanOrEqual(60)
    expect(problem.retry_after).toBe(retryAfter)
    expect(await outbox(app, email)).toHaveLength(1)
    expect((await sendEmailCode(app, uniqueEmail())).statusCode).toBe(200)

    const phone = uniquePhone()
    expect((await sendPhoneCode(app, phone)).statusCode).toBe(200)
    expectProblem(await sendPhoneCode(app, digitsOf(phone)), 429, 'RATE_LIMITED')
  })

  it('two sends to one address at once make one code: the other answers 429', async () => {
    const email = uniqueEmail()
    const answers = await Promise.all([sendEmailCode(app, email), sendEmailCode(app, email)])
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 429])
    expect(await outbox(app, email)).toHaveLength(1)
  })

  it('one code used twice at once signs in once', async () => {
    const email = uniqueEmail()
    await sendEmailCode(app, email)
    const code = await latestCode(app, email)
    const answers = await Promise.all([
      verifyEmail(app, email, code),
      verifyEmail(app, email, code),
    ])
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 400])
    expect(await usersWith(app, 'email', email)).toHaveLength(1)
  })

  it('codes are stored hashed: the code itself appears nowhere in the stored rows', async () => {
    const email = uniqueEmail()
    await sendEmailCode(app, email)
    const code = await latestCode(app, email)
    const rows = await app.db
      .selectFrom('otp_codes')
      .selectAll()
      .where('identifier', '=', email)
      .execute()
    expect(rows).toHaveLength(1)
    expect(rows[0]).toMatchObject({
      channel: 'email',
      purpose: 'sign_in',
      user_id: null,
      consumed_at: null,
      code_hash: expect.stringMatching(/^[0-9a-f]{64}$/),
    })
    expect(JSON.stringify(rows)).not.toContain(code)
    const attempts = await app.db.selectFrom('otp_attempts').selectAll().execute()
    expect(JSON.stringify(attempts)).not.toContain(code)
  })

  it('the outbox holds each message with its code, purpose, subject and time, in the language asked for', async () => {
    const email = uniqueEmail()
    await sendEmailCode(app, email, { language: 'ru' })
    const [message] = await outbox(app, email)
    expect(message).toEqual({
      id: expect.any(String),
      channel: 'email',
      to: email,
      purpose: 'sign_in',
      code: expect.stringMatching(/^\d{6}$/),
      subject: 'Код для входа в Finplatform',
      body: expect.stringContaining(
        `Ваш код Finplatform: ${message!.code}. Срок действия — 5 минут.`,
      ),
      created_at: expect.any(String),
    })
    expect(Math.abs(Date.parse(message!.created_at) - Date.now())).toBeLessThan(60_000)

    const english = uniqueEmail()
    await sendEmailCode(app, english)
    const [en] = await outbox(app, english)
    expect(en!.subject).toBe('Your Finplatform sign-in code')
    expect(en!.body).toContain(`Your Finplatform code is ${en!.code}. It expires in 5 minutes.`)

    const phone = uniquePhone()
    await sendPhoneCode(app, phone)
    const [sms] = await outbox(app, phone)
    expect(sms!.body).toBe(`Your Finplatform code is ${sms!.code}. It expires in 5 minutes.`)
  })

  it('a message the provider refuses answers 502 MESSAGE_NOT_DELIVERED and leaves no usable code behind', async () => {
    const email = `${uniqueEmail().split('@')[0]}@fail.test`
    const refused = expectProblem(await sendEmailCode(app, email), 502, 'MESSAGE_NOT_DELIVERED')
    expect(refused.detail).not.toContain(email)
    const rows = await app.db
      .selectFrom('otp_codes')
      .select('id')
      .where('identifier', '=', email)
      .execute()
    expect(rows).toEqual([])
    expect(await outbox(app, email)).toEqual([])
    // Nothing was half-sent: trying again is not held back by the resend interval.
    expectProblem(await sendEmailCode(app, email), 502, 'MESSAGE_NOT_DELIVERED')
    expect(await usersWith(app, 'email', email)).toHaveLength(0)

    const phone = '+1 415 555 0000'
    expectProblem(await sendPhoneCode(app, phone), 502, 'MESSAGE_NOT_DELIVERED')
    expect(await outbox(app, phone)).toEqual([])
  })

  it('an account blocked by the tenant gets 423 USER_BLOCKED for a right code', async () => {
    const email = uniqueEmail()
    await signUp(app, { email })
    await app.db
      .updateTable('users')
      .set({ blocked_at: new Date() })
      .where('email', '=', email)
      .execute()
    expect((await sendEmailCode(app, email)).statusCode).toBe(200)
    expectProblem(await verifyEmail(app, email, await latestCode(app, email)), 423, 'USER_BLOCKED')
  })

  it('a code is good only in the tenant that sent it', async () => {
    const tenant = await createTenant(app)
    const email = uniqueEmail()
    await sendEmailCode(app, email)
    const [message] = await outbox(app, email)
    expectProblem(
      await verifyEmail(app, email, message!.code, headers({ 'x-tenant-id': tenant })),
      400,
      'OTP_INVALID',
    )
    // …and the outbox can be read per tenant.
    expect(await outbox(app, email, { tenant_id: tenant })).toEqual([])
    expect((await verifyEmail(app, email, message!.code)).statusCode).toBe(200)
  })
})

describeServer('one-time codes with a one-second lifetime (OTP_TTL=1)', () => {
  let app: FastifyInstance
  beforeAll(async () => {
    app = await createTestApp({ OTP_TTL: '1', OTP_RESEND_INTERVAL: '0' })
  })
  afterAll(() => app?.close())

  it('an expired code answers 419 OTP_EXPIRED', async () => {
    const email = uniqueEmail()
    const sent = await sendEmailCode(app, email)
    expect(sent.json<OtpSent>()).toMatchObject({ expires_in: 1, resend_in: 0 })
    const code = await latestCode(app, email)
    await sleep(1_100)
    const problem = expectProblem(await verifyEmail(app, email, code), 419, 'OTP_EXPIRED')
    expect(problem.title).toBe('Verification Expired')
    // Expiry is not a wrong guess: it does not count towards a block.
    const attempts = await app.db
      .selectFrom('otp_attempts')
      .select('failed_attempts')
      .where('identifier', '=', email)
      .executeTakeFirst()
    expect(attempts?.failed_attempts).toBe(0)
  })

  it('the message says how long the code lasts', async () => {
    const email = uniqueEmail()
    await sendEmailCode(app, email)
    expect((await outbox(app, email))[0]!.body).toContain('It expires in 1 second.')
  })
})

describeServer('one-time codes with no resend interval', () => {
  let app: FastifyInstance
  beforeAll(async () => {
    // The default 15-minute block: wrong codes a slow inject apart still count together.
    app = await createTestApp({ OTP_RESEND_INTERVAL: '0' })
  })
  afterAll(() => app?.close())

  it('"+1 (415) 555-…", "+1415555…" and "1415555…" are one person: one account, and any form finds it', async () => {
    const typed = uniquePhone()
    const digits = digitsOf(typed)
    expect((await sendPhoneCode(app, typed)).statusCode).toBe(200)
    const first = await verifyPhone(app, `+${digits}`, await latestCode(app, digits))
    const id = (await userOf(app, first.json())).id

    // Another code, asked for with bare digits, signs the same account in.
    expect((await sendPhoneCode(app, digits, { create_user: false })).statusCode).toBe(200)
    const second = await verifyPhone(app, typed, await latestCode(app, typed))
    expect(second.statusCode, second.body).toBe(200)
    expect((await userOf(app, second.json())).id).toBe(id)
    expect(await usersWith(app, 'phone', digits)).toHaveLength(1)
  })

  it('a newer code supersedes the older one, and the outbox lists them newest first', async () => {
    const email = uniqueEmail()
    await sendEmailCode(app, email)
    await sendEmailCode(app, email)
    const [newer, older] = await outbox(app, email)
    expect(Date.parse(newer!.created_at)).toBeGreaterThanOrEqual(Date.parse(older!.created_at))
    expect(newer!.id > older!.id).toBe(true)
    if (older!.code !== newer!.code) {
      expectProblem(await verifyEmail(app, email, older!.code), 400, 'OTP_INVALID')
    }
    expect((await verifyEmail(app, email, newer!.code)).statusCode).toBe(200)
    const reasons = await app.db
      .selectFrom('otp_codes')
      .select('consumed_reason')
      .where('identifier', '=', email)
      .orderBy('created_at')
      .execute()
    expect(reasons.map((row) => row.consumed_reason)).toEqual(['superseded', 'verified'])
  })

  it('after a block lifts, a new code works, and codes sent before the block stay dead', async () => {
    const email = uniqueEmail()
    await sendEmailCode(app, email)
    const code = await latestCode(app, email)
    for (let attempt = 0; attempt < 4; attempt++) {
      expectProblem(await verifyEmail(app, email, wrongCode(code)), 400, 'OTP_INVALID')
    }
    expectProblem(await verifyEmail(app, email, wrongCode(code)), 423, 'OTP_BLOCKED')
    expectProblem(await sendEmailCode(app, email), 423, 'OTP_BLOCKED')
    // The block lifts: its end moved into the past (no sleep racing a one-second block).
    await app.db
      .updateTable('otp_attempts')
      .set({ blocked_until: new Date(Date.now() - 1_000) })
      .where('identifier', '=', email)
      .execute()
    const stale = expectProblem(await verifyEmail(app, email, code), 400, 'OTP_INVALID')
    expect(stale.attempts_left).toBe(4)
    expect((await sendEmailCode(app, email)).statusCode).toBe(200)
    expect((await verifyEmail(app, email, await latestCode(app, email))).statusCode).toBe(200)
  })
})

describeServer('outside the sandbox', () => {
  let app: FastifyInstance
  beforeAll(async () => {
    app = await createTestApp({ SANDBOX: 'false' })
  })
  afterAll(() => app?.close())

  it('GET /api/sandbox/outbox does not exist: 404', async () => {
    const response = await app.inject({ method: 'GET', url: '/api/sandbox/outbox?to=a@b.c' })
    expectProblem(response, 404, 'NOT_FOUND')
  })

  it('codes are still sent (to the sandbox provider, the only SMS provider there is)', async () => {
    expect((await sendPhoneCode(app, uniquePhone())).statusCode).toBe(200)
  })
})
