import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, expect, it } from 'vitest'
import {
  createTestApp,
  DEFAULT_PASSWORD,
  describeServer,
  expectProblem,
  headers,
  signUp,
  uniqueEmail,
} from '../../test-support.ts'

describeServer('rate limits on credential checks', () => {
  let app: FastifyInstance
  beforeAll(async () => {
    app = await createTestApp({ AUTH_RATE_LIMIT_PER_EMAIL: '3', AUTH_RATE_LIMIT_PER_IP: '5' })
  })
  afterAll(() => app?.close())

  const signInFrom = (ip: string, email: string, password = 'wrong password') =>
    app.inject({
      method: 'POST',
      url: '/api/v2/auth/sign-in/password/email',
      headers: headers(),
      payload: { email, password },
      remoteAddress: ip,
    })

  it('the per-e-mail limit counts failures of sign-up and sign-in, from any address: the fourth answers 429 with Retry-After', async () => {
    const email = uniqueEmail()
    const signUpFrom = (ip: string) =>
      app.inject({
        method: 'POST',
        url: '/api/v2/auth/sign-up/password/email',
        headers: headers(),
        payload: { email, password: DEFAULT_PASSWORD },
        remoteAddress: ip,
      })
    expect((await signUpFrom('10.1.0.1')).statusCode).toBe(201)
    // Taken: a failed sign-up counts like a wrong password.
    expect((await signUpFrom('10.1.0.2')).statusCode).toBe(409)
    expect((await signInFrom('10.1.0.3', email)).statusCode).toBe(400)
    expect((await signInFrom('10.1.0.4', email.toUpperCase())).statusCode).toBe(400)

    // Even the right password waits now: the e-mail is under attack.
    const limited = await signInFrom('10.1.0.5', email, DEFAULT_PASSWORD)

    expectProblem(limited, 429, 'RATE_LIMITED')
    const retryAfter = Number(limited.headers['retry-after'])
    expect(retryAfter).toBeGreaterThan(14 * 60)
    expect(retryAfter).toBeLessThanOrEqual(15 * 60)
    expect((await signInFrom('10.1.0.5', uniqueEmail())).statusCode).toBe(400)
  })

  it('successful sign-ins never count toward the failure limit: a dozen in a row all succeed', async () => {
    const email = uniqueEmail()
    await signUp(app, { email, kyc: false })
    for (let round = 0; round < 12; round++) {
      const ip = `10.3.${round}.1`
      expect((await signInFrom(ip, email, DEFAULT_PASSWORD)).statusCode).toBe(200)
    }
    // Two failures on top still leave the third allowed (limit 3)…
    expect((await signInFrom('10.3.99.1', email)).statusCode).toBe(400)
    expect((await signInFrom('10.3.99.2', email)).statusCode).toBe(400)
    expect((await signInFrom('10.3.99.3', email, DEFAULT_PASSWORD)).statusCode).toBe(200)
    // …and the failures are what is counted.
    expect((await signInFrom('10.3.99.4', email)).statusCode).toBe(400)
    expectProblem(await signInFrom('10.3.99.5', email, DEFAULT_PASSWORD), 429, 'RATE_LIMITED')
  })

  it('the sixth attempt from one address within a minute answers 429 with Retry-After, for any e-mail', async () => {
    for (let attempt = 0; attempt < 5; attempt++) {
      expect((await signInFrom('10.2.0.1', uniqueEmail())).statusCode).toBe(400)
    }

    const limited = await signInFrom('10.2.0.1', uniqueEmail())

    expectProblem(limited, 429, 'RATE_LIMITED')
    const retryAfter = Number(limited.headers['retry-after'])
    expect(retryAfter).toBeGreaterThan(0)
    expect(retryAfter).toBeLessThanOrEqual(60)
    expect((await signInFrom('10.2.0.2', uniqueEmail())).statusCode).toBe(400)
  })
})
