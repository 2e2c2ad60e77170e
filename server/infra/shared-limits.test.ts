import { randomInt } from 'node:crypto'
import type { FastifyInstance } from 'fastify'
import { afterAll, afterEach, expect, it, vi } from 'vitest'
import type { TokenPair } from '../../contract/auth.ts'
import type { ApiKeyWithSecret } from '../../contract/developer.ts'
import { cardCalls, ok } from '../domain/cards/card-test-support.ts'
import { REVEALS_PER_MINUTE } from '../domain/cards/routes.ts'
import { TOKENS_PER_MINUTE } from '../domain/kyc/routes.ts'
import { provision } from '../test-databases.ts'
import {
  createTestAppOn,
  DEFAULT_PASSWORD,
  describeServer,
  expectProblem,
  headers,
  signIn,
  stepUp,
  uniqueEmail,
} from '../test-support.ts'

const onPostgres = process.env.TEST_DB_ENGINE === 'postgres'

const LIMITS = {
  AUTH_RATE_LIMIT_PER_EMAIL: '4',
  AUTH_RATE_LIMIT_PER_IP: '6',
  API_KEY_RATE_LIMIT_PER_MINUTE: '6',
}

/**
 * Limits are counted in the database (infra/rate-limit.ts), so they bind
 * every server process on it and outlive a restart. Each app here is one
 * "process": the same database, nothing else shared but the test's clock.
 */
describeServer('limits held in the database', () => {
  const cleanups: (() => Promise<unknown>)[] = []
  afterEach(() => {
    vi.useRealTimers()
  })
  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup()
  })

  /** A database that outlives its apps: PGlite on disk, or a PostgreSQL database. */
  async function place() {
    const provisioned = await provision({ migrated: true, onDisk: true })
    cleanups.push(provisioned.dispose)
    return { dataDir: provisioned.dataDir, databaseUrl: provisioned.databaseUrl }
  }
  async function appOn(where: Awaited<ReturnType<typeof place>>) {
    const app = await createTestAppOn(where, LIMITS)
    cleanups.push(() => app.close())
    return app
  }

  /** A client address of its own, so the per-address limit (6 here) stays out of the way. */
  const anywhere = () => `10.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}`
  const wrongPassword = (app: FastifyInstance, email: string) =>
    app.inject({
      method: 'POST',
      url: '/api/v2/auth/sign-in/password/email',
      headers: headers(),
      payload: { email, password: 'not the password' },
      remoteAddress: anywhere(),
    })
  /** Signs up `email` from an address of its own; the token pair. */
  const register = async (app: FastifyInstance, email = uniqueEmail()) => {
    const response = await app.inject({
      method: 'POST',
      url: '/api/v2/auth/sign-up/password/email',
      headers: headers(),
      payload: { email, password: DEFAULT_PASSWORD },
      remoteAddress: anywhere(),
    })
    return ok<TokenPair>(response, 201)
  }

  async function createKey(app: FastifyInstance, token: string) {
    const response = await app.inject({
      method: 'POST',
      url: '/api/v1/developer/access/create',
      headers: headers({ authorization: token }),
      payload: { name: 'shared', role: 'READ_ONLY' },
    })
    return ok<ApiKeyWithSecret>(response, 201)
  }
  const withKey = (app: FastifyInstance, key: string) =>
    app.inject({ method: 'GET', url: '/api/v2/wallets', headers: headers({ 'x-api-key': key }) })
  const otp = (app: FastifyInstance, token: string, cardId: string) =>
    app.inject({
      method: 'GET',
      url: `/api/v1/vcards/cards/${cardId}/sensitive/otp`,
      headers: headers({ authorization: token }),
    })

  /** From an address of its own: the per-address limits are the point, or beside it. */
  const from = (address: string) => ({ remoteAddress: address })
  const signInFrom = (app: FastifyInstance, address: string) =>
    app.inject({
      method: 'POST',
      url: '/api/v2/auth/sign-in/password/email',
      headers: headers(),
      payload: { email: uniqueEmail('nobody'), password: 'not the password' },
      ...from(address),
    })
  const sendCodeFrom = (app: FastifyInstance, address: string) =>
    app.inject({
      method: 'POST',
      url: '/api/v2/auth/sign-in/omni/email/otp',
      headers: headers(),
      payload: { email: uniqueEmail('code') },
      ...from(address),
    })
  const kycToken = (app: FastifyInstance, token: string) =>
    app.inject({
      method: 'POST',
      url: '/api/v1/kyc/sumsub/generate_token',
      headers: headers({ authorization: token }),
    })

  it('a restart forgets no limit: sign-in failures and attempts, code sends, reveals, KYC sessions and API-key calls', async () => {
    const where = await place()
    let app = await appOn(where)
    const email = uniqueEmail('restart')
    await register(app, email)
    for (let i = 0; i < 6; i++) expect((await signInFrom(app, '10.7.0.1')).statusCode).toBe(400)
    for (let i = 0; i < 6; i++) expect((await sendCodeFrom(app, '10.7.0.2')).statusCode).toBe(200)
    const unverified = (await register(app)).access_token
    for (let i = 0; i < TOKENS_PER_MINUTE; i++) ok(await kycToken(app, unverified))
    for (let i = 0; i < 4; i++) expect((await wrongPassword(app, email)).statusCode).toBe(400)
    const { fundedCard } = cardCalls(() => app)
    const { token, card } = await fundedCard(0n)
    for (let i = 0; i < REVEALS_PER_MINUTE; i++) ok(await otp(app, token, card.id))
    const key = await createKey(app, token)
    for (let i = 0; i < 6; i++) expect((await withKey(app, key.secret)).statusCode).toBe(200)
    await app.close()

    app = await appOn(where)
    expectProblem(await signInFrom(app, '10.7.0.1'), 429, 'RATE_LIMITED')
    expectProblem(await sendCodeFrom(app, '10.7.0.2'), 429, 'RATE_LIMITED')
    expectProblem(await kycToken(app, unverified), 429, 'RATE_LIMITED')
    expectProblem(await signIn(app, { email, password: DEFAULT_PASSWORD }), 429, 'RATE_LIMITED')
    expectProblem(await otp(app, token, card.id), 429, 'RATE_LIMITED')
    expectProblem(await withKey(app, key.secret), 429, 'API_KEY_RATE_LIMITED')
  })

  if (onPostgres) {
    it('two app instances on one database enforce one limit each and share the keys’ last use', async () => {
      const where = await place()
      const a = await appOn(where)
      const b = await appOn(where)
      const both = [a, b]

      // Sign-in failures per e-mail: 4 between them, alternating, then 429 on either.
      const email = uniqueEmail('twins')
      await register(a, email)
      for (let i = 0; i < 4; i++) {
        expect((await wrongPassword(both[i % 2]!, email)).statusCode).toBe(400)
      }
      expectProblem(await signIn(b, { email, password: DEFAULT_PASSWORD }), 429, 'RATE_LIMITED')
      expectProblem(await wrongPassword(a, email), 429, 'RATE_LIMITED')

      // Card reveals and codes: ten a minute for the person, whichever process answers.
      const { fundedCard } = cardCalls(() => a)
      const { token, card } = await fundedCard(0n)
      for (let i = 0; i < REVEALS_PER_MINUTE; i++) ok(await otp(both[i % 2]!, token, card.id))
      expectProblem(await otp(a, token, card.id), 429, 'RATE_LIMITED')
      expectProblem(await otp(b, token, card.id), 429, 'RATE_LIMITED')

      // The per-key rate limit: six a minute, counted once across both.
      const t0 = new Date(Date.now() + 120_000)
      vi.setSystemTime(t0)
      const owner = (await register(a)).access_token
      await stepUp(a, owner) // creating a key asks for the second look (issue 21)
      const key = await createKey(a, owner)
      for (let i = 0; i < 6; i++) {
        expect((await withKey(both[i % 2]!, key.secret)).statusCode).toBe(200)
      }
      expectProblem(await withKey(a, key.secret), 429, 'API_KEY_RATE_LIMITED')
      expectProblem(await withKey(b, key.secret), 429, 'API_KEY_RATE_LIMITED')

      // Last use: written at most once a minute per key, whichever process saw the call.
      const lastUsed = async () => {
        const row = await a.db
          .selectFrom('api_keys')
          .select('last_used_at')
          .where('id', '=', key.id)
          .executeTakeFirstOrThrow()
        return row.last_used_at?.toISOString()
      }
      expect(await lastUsed()).toBe(t0.toISOString())
      vi.setSystemTime(new Date(t0.getTime() + 70_000))
      const t1 = new Date()
      expect((await withKey(b, key.secret)).statusCode).toBe(200)
      expect(await lastUsed()).toBe(t1.toISOString())
      vi.setSystemTime(new Date(t1.getTime() + 30_000))
      expect((await withKey(a, key.secret)).statusCode).toBe(200)
      expect(await lastUsed()).toBe(t1.toISOString())
    }, 120_000)
  }
})
