import { afterAll, expect, it } from 'vitest'
import type { TokenPair } from '../contract/auth.ts'
import type { Wallet } from '../contract/wallets.ts'
import { type ServerProcess, serverEnv, startServer, stopServer } from './process-test-support.ts'
import { provision } from './test-databases.ts'
import { DEFAULT_PASSWORD, describeServer, headers, uniqueEmail } from './test-support.ts'

/** The stop's promise (server/main.ts), and a little for the process to be reaped. */
const STOP_LIMIT_MS = 10_000

/**
 * Stopping is unconditional: whatever is in flight and whatever became of
 * stdout, SIGTERM ends the process within ten seconds. Servers started by
 * test clients that had exited were found looping forever on a log write
 * that got EPIPE (issue 17): a stop while requests and jobs were in flight,
 * stdout full, then its reader gone.
 */
describeServer('a server process and its stdout', () => {
  const cleanups: (() => Promise<unknown>)[] = []
  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup()
  })

  async function start(extra: Record<string, string> = {}) {
    const place = await provision({ migrated: true, onDisk: true })
    cleanups.push(place.dispose)
    const server = await startServer(serverEnv(place, extra), { drain: false })
    cleanups.push(() => stopServer(server, 'SIGKILL'))
    return server
  }

  const call = (server: ServerProcess, method: string, path: string, body?: unknown, token = '') =>
    fetch(`${server.url}${path}`, {
      method,
      headers: headers(token ? { authorization: `Bearer ${token}` } : {}),
      ...(body !== undefined && { body: JSON.stringify(body) }),
    })

  /** Milliseconds from SIGTERM to the process being gone; fails past the limit (then kills it). */
  async function timeToStop(server: ServerProcess, during: () => void = () => {}) {
    const sent = Date.now()
    server.child.kill('SIGTERM')
    during()
    const outcome = await Promise.race([
      server.exited.then(() => 'exited' as const),
      new Promise<'hung'>((resolve) => setTimeout(() => resolve('hung'), STOP_LIMIT_MS + 5_000)),
    ])
    const took = Date.now() - sent
    if (outcome === 'hung') await stopServer(server, 'SIGKILL')
    expect(outcome, `still running ${took} ms after SIGTERM`).toBe('exited')
    return took
  }

  it('a server whose stdout is closed keeps answering, and SIGTERM ends it within 10 s', async () => {
    const server = await start()
    server.child.stdout!.destroy()

    // Every one of these writes a log line into the closed pipe.
    for (let i = 0; i < 30; i++) {
      expect((await call(server, 'GET', '/api/v2/wallets')).status).toBe(401)
    }
    const signedUp = await call(server, 'POST', '/api/v2/auth/sign-up/password/email', {
      email: uniqueEmail('closed'),
      password: DEFAULT_PASSWORD,
    })
    expect(signedUp.status).toBe(201)

    expect(await timeToStop(server)).toBeLessThan(STOP_LIMIT_MS)
  }, 90_000)

  it('SIGTERM with a request and jobs in flight, stdout full and then closed during the stop: gone within 10 s', async () => {
    const server = await start({
      // A request that takes a while: the rates provider answers after 4 s.
      RATES_SANDBOX_LATENCY_MS: '4000',
      // Jobs in flight: deposits confirming one block every 100 ms, polled every 10 ms.
      JOBS_POLL_MS: '10',
      SANDBOX_BLOCK_MS: '100',
      SANDBOX_MAX_CONFIRMATIONS: '3',
    })
    const pair = (await (
      await call(server, 'POST', '/api/v2/auth/sign-up/password/email', {
        email: uniqueEmail('busy'),
        password: DEFAULT_PASSWORD,
      })
    ).json()) as TokenPair
    const token = pair.access_token
    const wallet = (await (
      await call(server, 'POST', '/api/v2/wallets', { type: 'personal' }, token)
    ).json()) as Wallet
    expect(
      (await call(server, 'POST', `/api/v2/wallets/${wallet.uuid}/addresses/tron`, {}, token))
        .status,
    ).toBe(201)

    // Nobody reads the server's stdout: the pipe fills (≈ 400 kB of request lines).
    for (let batch = 0; batch < 32; batch++) {
      await Promise.all(Array.from({ length: 50 }, () => call(server, 'GET', '/api/v2/wallets')))
    }
    for (let i = 0; i < 20; i++) {
      const deposit = await call(server, 'POST', '/api/sandbox/deposits', {
        wallet_uuid: wallet.uuid,
        chain: 'tron',
        currency: 'usdt',
        amount: '1.5',
      })
      expect(deposit.status).toBe(202)
    }
    const slow = call(server, 'GET', '/api/v2/rates', undefined, token)
    await new Promise((resolve) => setTimeout(resolve, 300))

    const took = await timeToStop(server, () => {
      // The reader goes away while the server is stopping.
      setTimeout(() => server.child.stdout!.destroy(), 500)
    })
    expect(took).toBeLessThan(STOP_LIMIT_MS)
    // The request in flight was drained, not cut off.
    expect((await slow).status).toBe(200)
  }, 120_000)
})
