import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, expect, it } from 'vitest'
import type { TokenPair } from '../../../contract/auth.ts'
import type { RefreshOutcome } from '../../infra/metrics.ts'
import {
  createTenant,
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
import { signOut } from './auth-test-support.ts'
import { Tokens } from './tokens.ts'

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

describeServer('sessions: refresh and sign-out', () => {
  let app: FastifyInstance
  beforeAll(async () => {
    app = await createTestApp()
  })
  afterAll(() => app?.close())

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
