import { connect, createServer, type Server, type Socket } from 'node:net'
import type { FastifyInstance } from 'fastify'
import { sql } from 'kysely'
import { afterAll, beforeAll, expect, it, vi } from 'vitest'
import type { TokenPair } from '../../../contract/auth.ts'
import { statementsOf } from '../../infra/db/statements.ts'
import { provision } from '../../test-databases.ts'
import {
  createTestAppOn,
  describeServer,
  expectProblem,
  getUser,
  headers,
  signUp,
} from '../../test-support.ts'

/*
 * Issue 29: two server processes on one PostgreSQL (two apps on one database).
 * A session ended on A is refused by B as soon as B hears of it; while B
 * cannot hear (its listening connection killed), B asks the database.
 * PostgreSQL only (`*.postgres.test.ts`: the server:pglite project leaves it
 * out): PGlite in memory is one process's own.
 */

/** The session check's query (auth/repository.ts SESSION_STATE) among the statements. */
const readsSession = (statements: string[]) =>
  statements.some((sql) => /from sessions s join users u/.test(sql))

/**
 * A TCP hop in front of PostgreSQL for B's listening connection: paused, it
 * holds new connections unanswered — B cannot listen again until resumed.
 */
async function pausableHop(target: URL) {
  let paused = false
  const held: Socket[] = []
  const sockets = new Set<Socket>()
  const pipe = (client: Socket) => {
    const upstream = connect(Number(target.port || 5432), target.hostname)
    for (const socket of [client, upstream]) {
      sockets.add(socket)
      socket.on('error', () => {})
      socket.on('close', () => {
        client.destroy()
        upstream.destroy()
      })
    }
    client.pipe(upstream).pipe(client)
  }
  const server: Server = createServer((client) => (paused ? held.push(client) : pipe(client)))
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const url = new URL(target)
  url.hostname = '127.0.0.1'
  url.port = String((server.address() as { port: number }).port)
  return {
    url: url.toString(),
    pause: () => {
      paused = true
    },
    resume: () => {
      paused = false
      for (const client of held.splice(0)) pipe(client)
    },
    close: async () => {
      for (const socket of sockets) socket.destroy()
      for (const socket of held) socket.destroy()
      await new Promise((resolve) => server.close(resolve))
    },
  }
}
describeServer('sessions ended on one process, heard on another', () => {
  let place: Awaited<ReturnType<typeof provision>>
  let hop: Awaited<ReturnType<typeof pausableHop>>
  let a: FastifyInstance
  let b: FastifyInstance
  beforeAll(async () => {
    place = await provision({ migrated: true })
    hop = await pausableHop(new URL(place.databaseUrl))
    a = await createTestAppOn(place, { NODE_NAME: 'node-a' })
    b = await createTestAppOn(place, { NODE_NAME: 'node-b', DATABASE_DIRECT_URL: hop.url })
    await vi.waitFor(() => expect([a.sessions.trusted, b.sessions.trusted]).toEqual([true, true]))
  })
  afterAll(async () => {
    await a?.close()
    await b?.close()
    await hop?.close()
    await place?.dispose()
  })

  const signOut = (pair: TokenPair) =>
    a.inject({
      method: 'POST',
      url: '/api/v2/auth/sign-out',
      headers: headers(),
      payload: { refresh_token: pair.refresh_token },
    })
  /** Whether B read the session from the database to answer the token's call. */
  const bAsksTheDatabase = async (pair: TokenPair) => {
    const { result, statements } = await statementsOf(() => getUser(b, pair.access_token))
    expect(result.statusCode).toBe(200)
    return readsSession(statements)
  }

  it('a session ended on A is refused by B within 100 ms', async () => {
    // B's first 401 compiles its answer's serialiser: not part of what is measured.
    expectProblem(await getUser(b, 'not-a-token'), 401, 'UNAUTHORIZED')
    const pair = await signUp(a, { kyc: false })
    await getUser(b, pair.access_token)
    expect(await bAsksTheDatabase(pair)).toBe(false)

    const out = await signOut(pair)
    const ended = performance.now()
    expect(out.statusCode, out.body).toBe(204)
    let refused = await getUser(b, pair.access_token)
    while (refused.statusCode === 200 && performance.now() - ended < 1_000) {
      await new Promise((resolve) => setTimeout(resolve, 1))
      refused = await getUser(b, pair.access_token)
    }
    const ms = performance.now() - ended

    expectProblem(refused, 401, 'UNAUTHORIZED')
    expect(ms).toBeLessThan(100)
  })

  it('with its listening connection killed, B asks the database until it listens again', async () => {
    const [ending, staying] = [await signUp(a, { kyc: false }), await signUp(a, { kyc: false })]
    for (const pair of [ending, staying]) {
      await getUser(b, pair.access_token)
      expect(await bAsksTheDatabase(pair)).toBe(false)
    }

    hop.pause()
    const { rows } = await sql<{ killed: boolean }>`
      select pg_terminate_backend(pid) as killed from pg_stat_activity
      where application_name = 'node-b: listen session_ends'`.execute(a.db)
    expect(rows).toEqual([{ killed: true }])
    await vi.waitFor(() => expect(b.sessions.trusted).toBe(false))

    // Ended while B hears nothing: its notification is lost to B.
    expect((await signOut(ending)).statusCode).toBe(204)
    expectProblem(await getUser(b, ending.access_token), 401, 'UNAUTHORIZED')
    expect(await bAsksTheDatabase(staying)).toBe(true)
    expect(await bAsksTheDatabase(staying)).toBe(true)

    hop.resume()
    await vi.waitFor(() => expect(b.sessions.trusted).toBe(true), { timeout: 10_000 })
    expect(await bAsksTheDatabase(staying)).toBe(true)
    expect(await bAsksTheDatabase(staying)).toBe(false)
    expectProblem(await getUser(b, ending.access_token), 401, 'UNAUTHORIZED')
  })
})
