import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, expect, it } from 'vitest'
import {
  bearer,
  createTestApp,
  describeServer,
  expectProblem,
  headers,
  signUp,
  stepUp,
  uniqueEmail,
} from '../../test-support.ts'
import { latestCode, sendEmailCode, verifyEmail, wrongCode } from './otp-test-support.ts'

/*
 * Issue 26, finding 6: one-time codes count wrong guesses per (contact,
 * purpose) and per client address. What anyone may try at the public calls
 * never blocks the signed-in person's second look, which only their session
 * reaches (purpose step_up).
 */

describeServer('one-time codes: counted per contact and purpose', () => {
  let app: FastifyInstance
  beforeAll(async () => {
    app = await createTestApp()
  })
  afterAll(() => app?.close())

  const sendStepUp = (token: string) =>
    app.inject({
      method: 'POST',
      url: '/api/v2/user/step-up/otp/send',
      headers: headers(bearer(token)),
    })
  const verifyStepUp = (token: string, code: string) =>
    app.inject({
      method: 'POST',
      url: '/api/v2/user/step-up/otp',
      headers: headers(bearer(token)),
      payload: { token: code },
    })

  /** Five wrong sign-in codes for `email` from anyone, the last one blocking its sign-in codes. */
  async function anonymousGuesses(email: string) {
    for (let guess = 1; guess <= 5; guess++) {
      const answer = await verifyEmail(app, email, String(100_000 + guess))
      expect(answer.statusCode, answer.body).toBe(guess < 5 ? 400 : 423)
    }
  }

  it('five anonymous wrong codes do not block the person’s second look', async () => {
    const email = uniqueEmail('victim')
    const { access_token } = await signUp(app, { email, kyc: false })

    await anonymousGuesses(email)

    // The sign-in codes of this e-mail are blocked…
    expectProblem(await sendEmailCode(app, email), 423, 'OTP_BLOCKED')
    // …the step-up code still goes, and works.
    await stepUp(app, access_token)
    const status = await app.inject({
      method: 'GET',
      url: '/api/v2/user/step-up',
      headers: headers(bearer(access_token)),
    })
    expect(status.json().fresh_until).not.toBeNull()
  })

  it('a block of the step-up code leaves the sign-in codes alone', async () => {
    const email = uniqueEmail()
    const { access_token } = await signUp(app, { email, kyc: false })
    expect((await sendStepUp(access_token)).statusCode).toBe(200)
    const code = await latestCode(app, email)
    for (let guess = 1; guess <= 5; guess++) {
      const answer = await verifyStepUp(access_token, wrongCode(code))
      expect(answer.statusCode, answer.body).toBe(guess < 5 ? 400 : 423)
    }
    expectProblem(await sendStepUp(access_token), 423, 'OTP_BLOCKED')

    expect((await sendEmailCode(app, email)).statusCode).toBe(200)
    const signIn = await verifyEmail(app, email, await latestCode(app, email))
    expect(signIn.statusCode, signIn.body).toBe(200)
  })

  it('the resend interval is per purpose: a sign-in code sent just now does not hold back the step-up code', async () => {
    const email = uniqueEmail()
    const { access_token } = await signUp(app, { email, kyc: false })
    expect((await sendEmailCode(app, email)).statusCode).toBe(200)

    const stepUpCode = await sendStepUp(access_token)

    expect(stepUpCode.statusCode, stepUpCode.body).toBe(200)
    expectProblem(await sendEmailCode(app, email), 429, 'RATE_LIMITED')
  })
})

describeServer('one-time codes: wrong codes per client address', () => {
  let app: FastifyInstance
  beforeAll(async () => {
    app = await createTestApp({ OTP_MAX_ATTEMPTS_PER_IP: '3' })
  })
  afterAll(() => app?.close())

  const from = (ip: string) => headers({ 'x-forwarded-for': ip })

  it('across many e-mails, one address may guess OTP_MAX_ATTEMPTS_PER_IP times, then 429; a right code is not counted', async () => {
    const right = uniqueEmail()
    expect((await sendEmailCode(app, right)).statusCode).toBe(200)
    const signedIn = await verifyEmail(app, right, await latestCode(app, right))
    expect(signedIn.statusCode, signedIn.body).toBe(200)

    for (let guess = 0; guess < 3; guess++) {
      const answer = await verifyEmail(app, uniqueEmail(), '123456')
      expectProblem(answer, 400, 'OTP_INVALID')
    }
    const refused = expectProblem(
      await verifyEmail(app, uniqueEmail(), '123456'),
      429,
      'RATE_LIMITED',
    )
    expect(refused.retry_after).toBeGreaterThan(0)
    // Every e-mail tried had attempts left: the count is the address's, not theirs.
    expect(refused.attempts_left).toBeUndefined()
  })

  it('the count is kept per client address', async () => {
    const behindProxy = await createTestApp({ OTP_MAX_ATTEMPTS_PER_IP: '1', TRUST_PROXY: 'true' })
    try {
      const guess = (ip: string) => verifyEmail(behindProxy, uniqueEmail(), '123456', from(ip))
      expectProblem(await guess('203.0.113.1'), 400, 'OTP_INVALID')
      expectProblem(await guess('203.0.113.1'), 429, 'RATE_LIMITED')
      expectProblem(await guess('203.0.113.2'), 400, 'OTP_INVALID')
    } finally {
      await behindProxy.close()
    }
  })
})
