import { randomUUID } from 'node:crypto'
import { join } from 'node:path'
import { Writable } from 'node:stream'
import type { FastifyInstance, LightMyRequestResponse } from 'fastify'
import { describe, expect } from 'vitest'
import type { TokenPair } from '../contract/auth.ts'
import type { KycStatus } from '../contract/enums.ts'
import type { FiatAccount } from '../contract/fiat-accounts.ts'
import type { KycStatusReply } from '../contract/kyc.ts'
import type { Problem } from '../contract/problem.ts'
import { DEMO_TENANT_ID } from '../contract/tenancy.ts'
import type { Wallet, WalletType } from '../contract/wallets.ts'
import { type BuildOptions, buildApp } from './app.ts'
import { loadConfig } from './config.ts'
import { defaultProgramId, ensureDefaultPrograms } from './domain/issuing/default-programs.ts'
import {
  insertTransactions,
  type TransactionOverrides,
} from './domain/transactions/transaction-fixtures.ts'
import { openDatabase } from './infra/db/database.ts'
import { migratedPglite, postgresUrl, provision } from './test-databases.ts'

/**
 * What every server test builds on: the real app (config, plugins, routes,
 * migrations) on the engine its vitest project names, driven by app.inject.
 */

/**
 * `describe` for every server test file. It skips only in the one case
 * tests/support/postgres-cluster.ts allows: the PostgreSQL project on a
 * machine without PostgreSQL, outside CI.
 */
export const describeServer = postgresUrl === '' ? describe.skip : describe

/**
 * Builds the app on a database of its own, already migrated: PGlite in memory,
 * or a database in the run's PostgreSQL (dropped on close), both copies of the
 * run's template; `fresh: true` starts from an empty one the app migrates itself.
 * Building costs a second or more: build one per file in beforeAll and keep tests
 * apart by e-mail. Logs are silent unless a `logStream` is passed (then `info`).
 */
export async function createTestApp(
  overrides: Record<string, string> = {},
  { fresh = false, ...options }: BuildOptions & { fresh?: boolean } = {},
): Promise<FastifyInstance> {
  const place = await provision({ migrated: !fresh })
  try {
    const app = await createTestAppOn(place, overrides, options)
    // After close() rather than in an onClose hook: those run last-registered
    // first, so a drop there would cut the pool before the db plugin ends it.
    const close = app.close.bind(app)
    app.close = (async () => {
      await close()
      await place.dispose()
    }) as typeof app.close
    return app
  } catch (error) {
    await place.dispose()
    throw error
  }
}

/**
 * The app on a database that outlives it (a `provision()` place): two apps on
 * one PostgreSQL database are two server processes; apps one after the other
 * on one place are a restart (pass `databaseUrl: ''` for PGlite on disk in
 * the place's DATA_DIR). close() leaves the place; the caller disposes of it.
 */
export async function createTestAppOn(
  place: { dataDir: string; databaseUrl: string; migrated?: boolean },
  overrides: Record<string, string> = {},
  options: BuildOptions = {},
): Promise<FastifyInstance> {
  // PGlite in memory is a new database per app: the migrated one is loaded into it.
  const database =
    place.migrated && (overrides.DATABASE_URL ?? place.databaseUrl) === 'memory://'
      ? await openDatabase({
          databaseUrl: 'memory://',
          dataDir: place.dataDir,
          loadDataDir: await migratedPglite(),
        })
      : undefined
  const config = loadConfig({
    DATA_DIR: place.dataDir,
    DIST_DIR: join(place.dataDir, 'no-dist'),
    DATABASE_URL: place.databaseUrl,
    // The same routes on both engines: the sandbox is on by default only for PGlite.
    SANDBOX: 'true',
    LOG_LEVEL: options.logStream ? 'info' : 'silent',
    // Every injected request comes from 127.0.0.1: a file signs up more users
    // than the real per-IP limit allows. The rate-limit tests set their own.
    AUTH_RATE_LIMIT_PER_IP: '100000',
    AUTH_RATE_LIMIT_PER_EMAIL: '100000',
    OTP_MAX_ATTEMPTS_PER_IP: '100000',
    // Tests drive the job queue with app.jobs.runDue(), deterministically;
    // and seed the demo only where they test it.
    JOBS_POLL_MS: '0',
    DEMO_SEED: 'false',
    // Events are written everywhere; only the event tests run their dispatch jobs
    // (server/domain/events), so other files' job runs meet only their own jobs.
    EVENTS_DISPATCH: 'false',
    ...overrides,
  })
  return buildApp(config, { ...options, database }).catch(async (error) => {
    await database?.close()
    throw error
  })
}

/** The headers the app sends on every call (docs/product.md §7), for the demo tenant. */
export function headers(extra: Record<string, string> = {}): Record<string, string> {
  return {
    'x-tenant-id': DEMO_TENANT_ID,
    'x-app-env': 'web',
    'content-type': 'application/json',
    ...extra,
  }
}

export const bearer = (accessToken: string) => ({ authorization: `Bearer ${accessToken}` })

/** A fresh address per test: tests share their file's app and database. */
export const uniqueEmail = (name = 'user') => `${name}-${randomUUID()}@example.com`

export const DEFAULT_PASSWORD = 'correct horse battery staple'

interface Credentials {
  email: string
  password: string
  headers: Record<string, string>
}

/**
 * Signs up a new user (a unique e-mail unless given) and returns the token pair.
 * The user comes back with an APPROVED identity verification, decided through
 * the sandbox's own route (POST /api/sandbox/kyc/decision), because cards,
 * withdrawals and fiat deposits refuse anyone else (403 KYC_REQUIRED). Pass
 * `kyc: false` for a user who never verified (UNVERIFIED), e.g. to test the
 * gates or an app built with SANDBOX=false. `stepUp: true` also gives the
 * session a fresh proof of presence (stepUp below), for sensitive calls.
 */
export async function signUp(
  app: FastifyInstance,
  overrides: Partial<Credentials> & { kyc?: boolean; stepUp?: boolean } = {},
) {
  const response = await app.inject({
    method: 'POST',
    url: '/api/v2/auth/sign-up/password/email',
    headers: overrides.headers ?? headers(),
    payload: {
      email: overrides.email ?? uniqueEmail(),
      password: overrides.password ?? DEFAULT_PASSWORD,
    },
  })
  expect(response.statusCode, response.body).toBe(201)
  const pair = response.json<TokenPair>()
  if (overrides.kyc !== false) {
    await decideKyc(app, pair.access_token, 'APPROVED', overrides.headers ?? headers())
  }
  if (overrides.stepUp) await stepUp(app, pair.access_token, overrides.headers ?? headers())
  return pair
}

/** The sandbox operator's KYC decision for the holder of `accessToken`; answers the new status. */
export async function decideKyc(
  app: FastifyInstance,
  accessToken: string,
  status: KycStatus,
  on: Record<string, string> = headers(),
) {
  const response = await app.inject({
    method: 'POST',
    url: '/api/sandbox/kyc/decision',
    headers: { ...on, ...bearer(accessToken) },
    payload: { status },
  })
  expect(response.statusCode, response.body).toBe(200)
  return response.json<KycStatusReply>()
}

/** Creates a wallet for the holder of `accessToken` through the API. */
export async function createWallet(
  app: FastifyInstance,
  accessToken: string,
  type: WalletType = 'personal',
): Promise<Wallet> {
  const response = await app.inject({
    method: 'POST',
    url: '/api/v2/wallets',
    headers: headers(bearer(accessToken)),
    payload: { type },
  })
  expect(response.statusCode, response.body).toBe(201)
  return response.json<Wallet>()
}

/**
 * Opens a fiat account in the wallet through the API, under the demo tenant's
 * active EUR prepaid program unless another program is named.
 */
/** The demo tenant's account programs, as ensureDefaultPrograms seeds them. */
export const DEMO_PROGRAM = {
  prepaid: defaultProgramId(DEMO_TENANT_ID, 'eur-prepaid'),
  balance: defaultProgramId(DEMO_TENANT_ID, 'eur-balance'),
  usd: defaultProgramId(DEMO_TENANT_ID, 'usd-balance'),
  archived: defaultProgramId(DEMO_TENANT_ID, 'eur-prepaid-classic'),
}

export async function createFiatAccount(
  app: FastifyInstance,
  accessToken: string,
  walletId: string,
  programId: string = DEMO_PROGRAM.prepaid,
): Promise<FiatAccount> {
  const response = await app.inject({
    method: 'POST',
    url: `/api/v2/fiat-accounts/${walletId}`,
    headers: headers(bearer(accessToken)),
    payload: { program_id: programId },
  })
  expect(response.statusCode, response.body).toBe(201)
  return response.json<FiatAccount>()
}

/** A new user with one wallet holding these records; their ids come back in the order given. */
export async function walletWithRecords(
  app: FastifyInstance,
  records: TransactionOverrides[] = [],
) {
  const pair = await signUp(app)
  const wallet = await createWallet(app, pair.access_token)
  const scope = { tenantId: DEMO_TENANT_ID, walletId: wallet.uuid }
  const ids = await insertTransactions(app.db, scope, records)
  return { pair, wallet, scope, ids }
}

export function signIn(app: FastifyInstance, overrides: Partial<Credentials> & { email: string }) {
  return app.inject({
    method: 'POST',
    url: '/api/v2/auth/sign-in/password/email',
    headers: overrides.headers ?? headers(),
    payload: { email: overrides.email, password: overrides.password ?? DEFAULT_PASSWORD },
  })
}

export function refresh(app: FastifyInstance, refreshToken: string) {
  return app.inject({
    method: 'POST',
    url: '/api/v2/auth/refresh/refresh-token',
    headers: headers(),
    payload: { refresh_token: refreshToken },
  })
}

/** GET /api/v2/user: the simplest call that needs a live session. */
export function getUser(app: FastifyInstance, accessToken: string) {
  return app.inject({ method: 'GET', url: '/api/v2/user', headers: headers(bearer(accessToken)) })
}

/** Asserts an RFC 9457 answer with this status and code, and returns its body. */
export function expectProblem(response: LightMyRequestResponse, status: number, code: string) {
  expect(response.statusCode, response.body).toBe(status)
  expect(String(response.headers['content-type'])).toMatch(/^application\/problem\+json(;|$)/)
  const problem = response.json<Problem>()
  expect(problem).toMatchObject({ status, code, type: expect.stringContaining('/problems/') })
  expect(problem.title).toEqual(expect.any(String))
  return problem
}

/** Another tenant besides the demo one, straight in the database, with the default card programs. */
export async function createTenant(
  app: FastifyInstance,
  overrides: { id?: string; name?: string } = {},
) {
  const id = overrides.id ?? randomUUID()
  await app.db
    .insertInto('tenants')
    .values({ id, name: overrides.name ?? `Tenant ${id.slice(0, 8)}` })
    .execute()
  await ensureDefaultPrograms(app.db, id)
  return id
}

/** A log destination for `createTestApp(…, { logStream })` that keeps every line written. */
export function captureLogs() {
  const lines: string[] = []
  const stream = new Writable({
    write(chunk, _encoding, done) {
      lines.push(String(chunk))
      done()
    },
  })
  return { stream, lines }
}

/**
 * Gives the session of `accessToken` a fresh proof of presence (issue 21's
 * step-up) the way a person would with a one-time code: the code goes to the
 * account's e-mail (else phone) and is read from the sandbox outbox. For
 * tests that make sensitive calls (card reveal, payout destinations,
 * withdrawals, API keys, contact changes); the proof lasts five minutes.
 */
export async function stepUp(
  app: FastifyInstance,
  accessToken: string,
  on: Record<string, string> = headers(),
): Promise<void> {
  const call = (url: string, payload?: unknown) =>
    app.inject({
      method: 'POST',
      url: `/api/v2${url}`,
      headers: { ...on, ...bearer(accessToken) },
      ...(payload === undefined ? {} : { payload: payload as object }),
    })
  const sent = await call('/user/step-up/otp/send')
  expect(sent.statusCode, sent.body).toBe(200)
  const user = await app.inject({
    method: 'GET',
    url: '/api/v2/user',
    headers: { ...on, ...bearer(accessToken) },
  })
  const { email, phone } = user.json<{ email: string | null; phone: string | null }>()
  // The table the sandbox messaging provider writes, read directly: an app
  // built with SANDBOX=false has no outbox route, yet its messages land here.
  const newest = await app.db
    .selectFrom('sandbox_outbox')
    .select(['code', 'purpose'])
    .where('recipient', '=', email ?? phone ?? '')
    // Security notices go to the same address (issue 26): the code is the step-up's.
    .where('purpose', '=', 'step_up')
    .orderBy('created_at', 'desc')
    .limit(1)
    .executeTakeFirst()
  expect(newest?.purpose).toBe('step_up')
  const proof = await call('/user/step-up/otp', { token: newest?.code })
  expect(proof.statusCode, proof.body).toBe(200)
}
