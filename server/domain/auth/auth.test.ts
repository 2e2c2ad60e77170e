import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, expect, it } from 'vitest'
import type { TokenPair } from '../../../contract/auth.ts'
import type { RefreshOutcome } from '../../infra/metrics.ts'
import {
  bearer,
  captureLogs,
  createTenant,
  createTestApp,
  DEFAULT_PASSWORD,
  describeServer,
  expectProblem,
  getUser,
  headers,
  refresh,
  signIn,
  signUp,
  uniqueEmail,
} from '../../test-support.ts'
import { Tokens } from './tokens.ts'

function signOut(app: FastifyInstance, refreshToken: string) {
  return app.inject({
    method: 'POST',
    url: '/api/v2/auth/sign-out',
    headers: headers(),
    payload: { refresh_token: refreshToken },
  })
}

function signUpRequest(app: FastifyInstance, email: string, password = DEFAULT_PASSWORD) {
  return app.inject({
    method: 'POST',
    url: '/api/v2/auth/sign-up/password/email',
    headers: headers(),
    payload: { email, password },
  })
}

async function refreshCounts(app: FastifyInstance): Promise<Record<RefreshOutcome, number>> {
  const text = (await app.inject({ method: 'GET', url: '/metrics' })).body
  const count = (outcome: RefreshOutcome) => {
    const line = new RegExp(
      // Beside the outcome, every series carries the node's name.
      `^auth_token_refresh_total\\{[^}]*\\boutcome="${outcome}"[^}]*\\} (\\d+)$`,
      'm',
    ).exec(text)
    if (!line) throw new Error(`no auth_token_refresh_total for ${outcome} in /metrics`)
    return Number(line[1])
  }
  return {
    rotated: count('rotated'),
    grace: count('grace'),
    reuse_revoked: count('reuse_revoked'),
    invalid: count('invalid'),
  }
}

describeServer('sign-up, sign-in and sessions', () => {
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

  it('a refresh rotates: a new refresh token, and the new access token works', async () => {
    const first = await signUp(app)

    const response = await refresh(app, first.refresh_token)

    expect(response.statusCode).toBe(200)
    const second = response.json<TokenPair>()
    expect(second.refresh_token).not.toBe(first.refresh_token)
    expect(second.token_type).toBe('bearer')
    expect((await getUser(app, second.access_token)).statusCode).toBe(200)
  })

  it('a used refresh token presented within the grace window answers the current pair', async () => {
    const first = await signUp(app)
    const rotated = (await refresh(app, first.refresh_token)).json<TokenPair>()

    const retried = await refresh(app, first.refresh_token)

    expect(retried.statusCode).toBe(200)
    const pair = retried.json<TokenPair>()
    expect(pair.refresh_token).toBe(rotated.refresh_token)
    expect((await getUser(app, pair.access_token)).statusCode).toBe(200)
    // The grace answer hands back the head of the chain without using it up.
    const next = await refresh(app, rotated.refresh_token)
    expect(next.statusCode).toBe(200)
    expect(next.json<TokenPair>().refresh_token).not.toBe(rotated.refresh_token)
    expect((await refresh(app, first.refresh_token)).json<TokenPair>().refresh_token).toBe(
      next.json<TokenPair>().refresh_token,
    )
  })

  it('two tabs refreshing with one token at once both end up with the same new refresh token', async () => {
    const first = await signUp(app)

    const answers = await Promise.all([
      refresh(app, first.refresh_token),
      refresh(app, first.refresh_token),
    ])

    expect(answers.map((answer) => answer.statusCode)).toEqual([200, 200])
    const [a, b] = answers.map((answer) => answer.json<TokenPair>().refresh_token)
    expect(a).toBe(b)
    expect(a).not.toBe(first.refresh_token)
  })

  it('an unknown refresh token answers 401 INVALID_REFRESH_TOKEN', async () => {
    expectProblem(await refresh(app, 'not-a-token-we-issued'), 401, 'INVALID_REFRESH_TOKEN')
  })

  it('a refresh token is only good in the tenant that issued it', async () => {
    const otherTenant = await createTenant(app)
    const pair = await signUp(app)

    const response = await app.inject({
      method: 'POST',
      url: '/api/v2/auth/refresh/refresh-token',
      headers: headers({ 'x-tenant-id': otherTenant }),
      payload: { refresh_token: pair.refresh_token },
    })

    expectProblem(response, 401, 'INVALID_REFRESH_TOKEN')
    expect((await refresh(app, pair.refresh_token)).statusCode).toBe(200)
  })

  it('signing out ends the session: its refresh and access tokens are refused', async () => {
    const pair = await signUp(app)

    const response = await signOut(app, pair.refresh_token)

    expect(response.statusCode).toBe(204)
    expectProblem(await refresh(app, pair.refresh_token), 401, 'INVALID_REFRESH_TOKEN')
    expectProblem(await getUser(app, pair.access_token), 401, 'UNAUTHORIZED')
  })

  it('signing out of one device leaves the other sessions signed in', async () => {
    const email = uniqueEmail()
    const phone = await signUp(app, { email })
    const laptop = (await signIn(app, { email })).json<TokenPair>()

    await signOut(app, phone.refresh_token)

    expect((await getUser(app, phone.access_token)).statusCode).toBe(401)
    expect((await getUser(app, laptop.access_token)).statusCode).toBe(200)
    expect((await refresh(app, laptop.refresh_token)).statusCode).toBe(200)
  })

  it('signing out with an unknown refresh token still answers 204', async () => {
    expect((await signOut(app, 'never-issued')).statusCode).toBe(204)
  })
})

describeServer('refresh-token reuse after the grace window', () => {
  let app: FastifyInstance
  beforeAll(async () => {
    app = await createTestApp() // REFRESH_REUSE_GRACE stays 30 s: a slow second use is still grace
  })
  afterAll(() => app?.close())

  /** The token's first use, moved back past the grace window: no sleeping, no race. */
  const outlastGrace = (refreshToken: string) =>
    app.db
      .updateTable('refresh_tokens')
      .set({ used_at: new Date(Date.now() - 60_000) })
      .where('token_hash', '=', Tokens.hash(refreshToken)) // what findRefreshTokenForUpdate matches
      .execute()

  it('a reused refresh token after the grace window ends the whole session', async () => {
    const first = await signUp(app)
    const rotated = (await refresh(app, first.refresh_token)).json<TokenPair>()
    expect((await getUser(app, rotated.access_token)).statusCode).toBe(200)

    await outlastGrace(first.refresh_token)
    const replay = await refresh(app, first.refresh_token)

    expectProblem(replay, 401, 'REFRESH_TOKEN_REUSED')
    // The newest token of the family and every access token of the session die with it.
    expectProblem(await refresh(app, rotated.refresh_token), 401, 'INVALID_REFRESH_TOKEN')
    expectProblem(await getUser(app, rotated.access_token), 401, 'UNAUTHORIZED')
    expectProblem(await getUser(app, first.access_token), 401, 'UNAUTHORIZED')
  })

  it('a reuse ends only the session it belongs to', async () => {
    const email = uniqueEmail()
    const stolen = await signUp(app, { email })
    const other = (await signIn(app, { email })).json<TokenPair>()
    await refresh(app, stolen.refresh_token)

    await outlastGrace(stolen.refresh_token)
    expectProblem(await refresh(app, stolen.refresh_token), 401, 'REFRESH_TOKEN_REUSED')

    expect((await getUser(app, other.access_token)).statusCode).toBe(200)
  })

  it('/metrics counts every refresh by its outcome', async () => {
    const before = await refreshCounts(app)
    const first = await signUp(app)

    const rotated = (await refresh(app, first.refresh_token)).json<TokenPair>()
    expect((await refresh(app, first.refresh_token)).statusCode).toBe(200)
    await outlastGrace(first.refresh_token)
    expect((await refresh(app, first.refresh_token)).statusCode).toBe(401)
    expect((await refresh(app, rotated.refresh_token)).statusCode).toBe(401)
    expect((await refresh(app, 'garbage')).statusCode).toBe(401)

    const after = await refreshCounts(app)
    expect({
      rotated: after.rotated - before.rotated,
      grace: after.grace - before.grace,
      reuse_revoked: after.reuse_revoked - before.reuse_revoked,
      invalid: after.invalid - before.invalid,
    }).toEqual({ rotated: 1, grace: 1, reuse_revoked: 1, invalid: 2 })
  })
})

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

describeServer('what the logs never hold', () => {
  let app: FastifyInstance
  const logs = captureLogs()
  beforeAll(async () => {
    const echo = async (scope: FastifyInstance) => {
      scope.post('/test/log-body', async (request) => {
        request.log.info({ body: request.body }, 'a route that logs what it was sent')
        return { ok: true }
      })
    }
    app = await createTestApp(
      {},
      {
        logStream: logs.stream,
        extraRoutes: { v2: [echo] },
        extraPolicies: { 'POST /api/v2/test/log-body': { access: 'public' } },
      },
    )
  })
  afterAll(() => app?.close())

  it('passwords, access tokens and refresh tokens never reach the logs', async () => {
    const password = 'Sup3r-Secret-Passphrase-9f8e7d'
    const email = uniqueEmail()
    const signedUp = await signUp(app, { email, password })
    const signedIn = (await signIn(app, { email, password })).json<TokenPair>()
    await signIn(app, { email, password: `${password}-wrong` })
    const rotated = (await refresh(app, signedIn.refresh_token)).json<TokenPair>()
    await getUser(app, rotated.access_token)
    await app.inject({
      method: 'GET',
      url: '/api/v2/user',
      headers: headers({ authorization: `Bearer ${signedUp.access_token}x` }),
    })
    await app.inject({
      method: 'POST',
      url: '/api/v2/test/log-body',
      headers: headers(bearer(rotated.access_token)),
      payload: {
        password,
        refresh_token: rotated.refresh_token,
        session: { access_token: rotated.access_token },
        credentials: { password },
      },
    })
    await signOut(app, rotated.refresh_token)

    const output = logs.lines.join('')
    // One line per request, with its outcome (infra/logger.ts).
    expect(output).toContain('POST /api/v2/auth/sign-in/password/email 200')
    expect(output).toContain('a route that logs what it was sent')
    expect(output).toContain('[redacted]')
    const secrets = {
      password,
      signedUpAccess: signedUp.access_token,
      signedUpRefresh: signedUp.refresh_token,
      signedInAccess: signedIn.access_token,
      signedInRefresh: signedIn.refresh_token,
      rotatedAccess: rotated.access_token,
      rotatedRefresh: rotated.refresh_token,
    }
    for (const [name, secret] of Object.entries(secrets)) {
      expect(output.includes(secret), `${name} appears in the logs`).toBe(false)
      // A JWT's signature alone is as good as a leak of the token.
      const tail = secret.split('.').at(-1)!
      expect(output.includes(tail), `${name} (its last part) appears in the logs`).toBe(false)
    }
  })
})
