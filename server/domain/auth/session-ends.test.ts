import { randomUUID } from 'node:crypto'
import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, expect, it, vi } from 'vitest'
import type { TokenPair } from '../../../contract/auth.ts'
import { DEMO_TENANT_ID } from '../../../contract/tenancy.ts'
import type { User } from '../../../contract/user.ts'
import { statementsOf } from '../../infra/db/statements.ts'
import {
  bearer,
  createTestApp,
  DEFAULT_PASSWORD,
  decideKyc,
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
import { outbox } from '../otp/otp-test-support.ts'
import { TenantService } from '../tenants/service.ts'
import { Tokens } from './tokens.ts'

/*
 * Issue 29: the session check answers from memory (session-cache.ts). Each
 * test first makes the session a cached one — a second call reads no session —
 * then ends it by one of the paths there are, and the very next call is refused.
 */

const NEW_PASSWORD = 'a quite different passphrase'

/** The id of the session an access token belongs to (its `sid` claim). */
const sessionOf = (pair: TokenPair): string =>
  JSON.parse(Buffer.from(pair.access_token.split('.')[1]!, 'base64url').toString()).sid

/** The session check's query (auth/repository.ts SESSION_STATE) among the statements. */
const readsSession = (statements: string[]) =>
  statements.some((sql) => /from sessions s join users u/.test(sql))

describeServer('sessions kept in memory', () => {
  let app: FastifyInstance
  beforeAll(async () => {
    app = await createTestApp()
    // On PostgreSQL the listening connection opens beside the app's start.
    await vi.waitFor(() => expect(app.sessions.trusted).toBe(true))
  })
  afterAll(() => app?.close())

  const call = (method: 'GET' | 'POST' | 'DELETE', url: string, token: string, payload?: object) =>
    app.inject({
      method,
      url: `/api/v2${url}`,
      headers: headers(bearer(token)),
      ...(payload && { payload }),
    })

  /** Makes the token's session a cached one, and checks that it is. */
  async function cached(token: string): Promise<void> {
    expect((await getUser(app, token)).statusCode).toBe(200)
    const { result, statements } = await statementsOf(() => getUser(app, token))
    expect(result.statusCode).toBe(200)
    expect(readsSession(statements)).toBe(false)
  }
  const signedInTwice = async () => {
    const email = uniqueEmail()
    const mine = await signUp(app, { email, kyc: false })
    const other = (await signIn(app, { email })).json<TokenPair>()
    await cached(mine.access_token)
    await cached(other.access_token)
    return { email, mine, other }
  }

  it('a cached session answers GET /user with no query at all', async () => {
    const { access_token } = await signUp(app, { kyc: false })
    await getUser(app, access_token)
    const { result, statements } = await statementsOf(() => getUser(app, access_token))

    expect(result.statusCode).toBe(200)
    expect(statements).toEqual([])
  })

  it('/metrics says the node hears sessions end, and how many it keeps', async () => {
    await getUser(app, (await signUp(app, { kyc: false })).access_token)
    const text = (await app.inject({ method: 'GET', url: '/metrics' })).body

    expect(text).toMatch(/^session_cache_listening\{[^}]*\} 1$/m)
    expect(Number(/^session_cache_entries\{[^}]*\} (\d+)$/m.exec(text)?.[1])).toBeGreaterThan(0)
  })

  it('signing out refuses the next call of its access token', async () => {
    const { access_token, refresh_token } = await signUp(app, { kyc: false })
    await cached(access_token)

    const out = await app.inject({
      method: 'POST',
      url: '/api/v2/auth/sign-out',
      headers: headers(),
      payload: { refresh_token },
    })

    expect(out.statusCode, out.body).toBe(204)
    expectProblem(await getUser(app, access_token), 401, 'UNAUTHORIZED')
  })

  it('ending another session, and signing out the others, refuse their next call', async () => {
    const { email, mine, other } = await signedInTwice()
    const third = (await signIn(app, { email })).json<TokenPair>()
    await cached(third.access_token)
    await stepUp(app, mine.access_token)

    const ended = await call('DELETE', `/user/sessions/${sessionOf(other)}`, mine.access_token)

    expect(ended.statusCode, ended.body).toBe(204)
    expectProblem(await getUser(app, other.access_token), 401, 'UNAUTHORIZED')
    expect((await getUser(app, third.access_token)).statusCode).toBe(200)

    const all = await call('POST', '/user/sessions/sign-out-others', mine.access_token)

    expect(all.statusCode, all.body).toBe(200)
    expectProblem(await getUser(app, third.access_token), 401, 'UNAUTHORIZED')
    expect((await getUser(app, mine.access_token)).statusCode).toBe(200)
  })

  it('a reused refresh token refuses the next call of the session it ends', async () => {
    const first = await signUp(app, { kyc: false })
    const rotated = (await refresh(app, first.refresh_token)).json<TokenPair>()
    await cached(rotated.access_token)
    // The first use moved back past the grace window: no sleeping.
    await app.db
      .updateTable('refresh_tokens')
      .set({ used_at: new Date(Date.now() - 60_000) })
      .where('token_hash', '=', Tokens.hash(first.refresh_token))
      .execute()

    expectProblem(await refresh(app, first.refresh_token), 401, 'REFRESH_TOKEN_REUSED')
    expectProblem(await getUser(app, rotated.access_token), 401, 'UNAUTHORIZED')
  })

  it('a lockdown refuses the next call of every other session', async () => {
    const { mine, other } = await signedInTwice()

    const locked = await call('POST', '/user/lockdown', mine.access_token, { reason: 'lost phone' })

    expect(locked.statusCode, locked.body).toBe(200)
    expectProblem(await getUser(app, other.access_token), 401, 'UNAUTHORIZED')
  })

  it('changing the password refuses the next call of every other session', async () => {
    const { mine, other } = await signedInTwice()
    await stepUp(app, mine.access_token)

    const changed = await call('POST', '/user/password', mine.access_token, {
      current_password: DEFAULT_PASSWORD,
      new_password: NEW_PASSWORD,
    })

    expect(changed.statusCode, changed.body).toBe(200)
    expectProblem(await getUser(app, other.access_token), 401, 'UNAUTHORIZED')
    expect((await getUser(app, mine.access_token)).statusCode).toBe(200)
  })

  it('resetting the password refuses the next call of every earlier session', async () => {
    const { email, mine, other } = await signedInTwice()
    const ask = await app.inject({
      method: 'POST',
      url: '/api/v2/auth/password/reset',
      headers: headers(),
      payload: { email },
    })
    expect(ask.statusCode, ask.body).toBe(202)
    await app.jobs.runDue()
    const [message] = await outbox(app, email)

    const reset = await app.inject({
      method: 'POST',
      url: '/api/v2/auth/password/reset/confirm',
      headers: headers(),
      payload: { email, token: message?.code, new_password: NEW_PASSWORD },
    })

    expect(reset.statusCode, reset.body).toBe(200)
    for (const pair of [mine, other]) {
      expectProblem(await getUser(app, pair.access_token), 401, 'UNAUTHORIZED')
    }
  })

  it('what the back office writes is read at once: a block, then its lifting', async () => {
    const { mine } = await signedInTwice()
    const { id } = (await getUser(app, mine.access_token)).json<User>()
    const block = (at: Date | null) =>
      app.db.updateTable('users').set({ blocked_at: at }).where('id', '=', id).execute()

    await block(new Date())
    expectProblem(await getUser(app, mine.access_token), 423, 'USER_BLOCKED')
    await block(null)
    expect((await getUser(app, mine.access_token)).statusCode).toBe(200)
  })

  it('what the session carries of the user and the tenant is never older than the database', async () => {
    const { mine } = await signedInTwice()

    await decideKyc(app, mine.access_token, 'APPROVED')
    expect((await getUser(app, mine.access_token)).json<User>().kyc_status).toBe('APPROVED')

    // Cards switched off for the tenant: its gate answers before the wallet is looked for.
    const accounts = () => call('GET', `/fiat-accounts/${randomUUID()}`, mine.access_token)
    expectProblem(await accounts(), 404, 'WALLET_NOT_FOUND')
    const tenants = new TenantService(app.db)
    await tenants.update(DEMO_TENANT_ID, { products: { cards: false } })
    try {
      expectProblem(await accounts(), 403, 'PRODUCT_DISABLED')
    } finally {
      await tenants.update(DEMO_TENANT_ID, { products: { cards: true } })
    }
    expectProblem(await accounts(), 404, 'WALLET_NOT_FOUND')
  })
})
