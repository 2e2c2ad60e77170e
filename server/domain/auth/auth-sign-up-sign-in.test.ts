import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, expect, it } from 'vitest'
import type { TokenPair } from '../../../contract/auth.ts'
import {
  createTestApp,
  describeServer,
  expectProblem,
  getUser,
  signIn,
  signUp,
  uniqueEmail,
} from '../../test-support.ts'
import { signUpRequest } from './auth-test-support.ts'

describeServer('sign-up and sign-in with a password', () => {
  let app: FastifyInstance
  beforeAll(async () => {
    app = await createTestApp()
  })
  afterAll(() => app?.close())

  it('signing up answers 201 with a bearer token pair', async () => {
    const response = await signUpRequest(app, uniqueEmail())

    expect(response.statusCode).toBe(201)
    const pair = response.json<TokenPair>()
    expect(pair).toEqual({
      access_token: expect.stringMatching(/^[\w-]+\.[\w-]+\.[\w-]+$/),
      refresh_token: expect.stringMatching(/^[\w-]{43}$/),
      token_type: 'bearer',
      expires_in: 900,
    })
    expect((await getUser(app, pair.access_token)).statusCode).toBe(200)
  })

  it('the e-mail is stored lower-cased, and signs in whatever its letter case', async () => {
    const email = uniqueEmail('Mixed.Case').replace('example.com', 'Example.COM')
    const pair = await signUp(app, { email, kyc: false })

    const user = await getUser(app, pair.access_token)
    expect(user.json()).toMatchObject({ email: email.toLowerCase(), kyc_status: 'UNVERIFIED' })
    expect((await signIn(app, { email: email.toLowerCase() })).statusCode).toBe(200)
    expect((await signIn(app, { email: email.toUpperCase() })).statusCode).toBe(200)
  })

  it('an e-mail already taken answers 409 EMAIL_TAKEN, whatever its letter case', async () => {
    const email = uniqueEmail()
    await signUp(app, { email })

    expectProblem(await signUpRequest(app, email), 409, 'EMAIL_TAKEN')
    expectProblem(await signUpRequest(app, email.toUpperCase()), 409, 'EMAIL_TAKEN')
  })

  it('surrounding spaces never make a second account for one address', async () => {
    const email = uniqueEmail()
    await signUp(app, { email })

    const response = await signUpRequest(app, `  ${email.toUpperCase()} `)

    // Refused either way: by the e-mail format check (422) or, once trimmed, as taken (409).
    expect([409, 422], response.body).toContain(response.statusCode)
  })

  it('two sign-ups racing for one address make one account', async () => {
    const email = uniqueEmail()

    const answers = await Promise.all([signUpRequest(app, email), signUpRequest(app, email)])

    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([201, 409])
  })

  it('a password shorter than 8 characters is refused with 422 naming /body/password', async () => {
    const problem = expectProblem(
      await signUpRequest(app, uniqueEmail(), 'short'),
      422,
      'VALIDATION_FAILED',
    )

    expect(problem.errors).toEqual([{ field: '/body/password', message: expect.any(String) }])
  })

  it('signing in with the right password answers a fresh pair for a new session', async () => {
    const email = uniqueEmail()
    const first = await signUp(app, { email })

    const response = await signIn(app, { email })

    expect(response.statusCode).toBe(200)
    const second = response.json<TokenPair>()
    expect(second.refresh_token).not.toBe(first.refresh_token)
    expect((await getUser(app, second.access_token)).statusCode).toBe(200)
  })

  it('a wrong password answers 400 INVALID_CREDENTIALS, not 401', async () => {
    const email = uniqueEmail()
    await signUp(app, { email })

    expectProblem(
      await signIn(app, { email, password: 'not the password' }),
      400,
      'INVALID_CREDENTIALS',
    )
  })

  it('an unknown e-mail answers exactly like a wrong password', async () => {
    const email = uniqueEmail()
    await signUp(app, { email })

    const unknown = expectProblem(
      await signIn(app, { email: uniqueEmail() }),
      400,
      'INVALID_CREDENTIALS',
    )
    const wrong = expectProblem(
      await signIn(app, { email, password: 'nope-nope' }),
      400,
      'INVALID_CREDENTIALS',
    )
    expect(unknown).toEqual(wrong)
  })
})
