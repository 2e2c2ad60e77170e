import { afterAll, expect, it } from 'vitest'
import type { TokenPair } from '../../../contract/auth.ts'
import type { OrderList } from '../../../contract/orders.ts'
import type { Schedule, ScheduleList } from '../../../contract/schedules.ts'
import { DEMO_TENANT_ID } from '../../../contract/tenancy.ts'
import type { WalletList } from '../../../contract/wallets.ts'
import { openDatabase } from '../../infra/db/database.ts'
import {
  type ServerProcess,
  serverEnv,
  startServer,
  stopServer,
} from '../../process-test-support.ts'
import { provision } from '../../test-databases.ts'
import { describeServer, uniqueEmail } from '../../test-support.ts'
import { expectLedgerInvariants } from '../ledger/ledger-test-support.ts'
import { CUR, fund } from '../orders/order-fixtures.ts'

/**
 * The real server (process-test-support.ts) killed with SIGKILL while a
 * schedule's runs are in hand — each run of an exchange waits 1.5 s for its
 * firm quote, so a kill finds them begun and unpaid — and started again on
 * the same database: every occurrence runs exactly once, one order each.
 */
describeServer('schedules survive a server killed with SIGKILL', () => {
  const cleanups: (() => Promise<unknown>)[] = []
  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup()
  })

  it('kill -9 mid-run, restart: each occurrence ran once', async () => {
    const place = await provision({ migrated: true, onDisk: true })
    cleanups.push(place.dispose)
    const env = serverEnv(place, {
      JOBS_POLL_MS: '20',
      JOBS_LEASE_MS: '1000',
      QUOTE_TTL_SECONDS: '600',
      RATES_SANDBOX_LATENCY_MS: '1500',
    })
    let server: ServerProcess = await startServer(env)
    cleanups.push(() => stopServer(server, 'SIGKILL'))
    let token = ''
    const call = async <T>(method: string, path: string, body?: unknown, status = 200) => {
      const response = await fetch(`${server.url}${path}`, {
        method,
        headers: {
          'x-tenant-id': DEMO_TENANT_ID,
          'x-app-env': 'web',
          'content-type': 'application/json',
          ...(token && { authorization: path.startsWith('/api/v2/') ? `Bearer ${token}` : token }),
        },
        ...(body !== undefined && { body: JSON.stringify(body) }),
      })
      const text = await response.text()
      expect(response.status, `${method} ${path}: ${text}`).toBe(status)
      return (text ? JSON.parse(text) : undefined) as T
    }

    token = (
      await call<TokenPair>(
        'POST',
        '/api/v2/auth/sign-up/password/email',
        { email: uniqueEmail('dca'), password: 'correct horse battery staple' },
        201,
      )
    ).access_token
    await call('POST', '/api/sandbox/kyc/decision', { status: 'APPROVED' })
    const wallet = (await call<WalletList>('GET', '/api/v2/wallets')).data[0]!.uuid

    // Tether in, straight through the ledger with the server down (PGlite: one process at a time).
    await stopServer(server, 'SIGTERM')
    const seeding = await openDatabase({ databaseUrl: env.DATABASE_URL, dataDir: place.dataDir })
    await fund(seeding.db, wallet, CUR.USDT_TRON, '200')
    await seeding.close()
    server = await startServer(env)

    // Four schedules whose first runs all fall at one moment, after they are all made.
    // Ten seconds: four calls, on a busy 2-core CI a second or two at worst.
    const startsAt = new Date(Math.ceil((Date.now() + 10_000) / 1000) * 1000)
    const made: Schedule[] = []
    for (let i = 0; i < 4; i++) {
      made.push(
        await call<Schedule>(
          'POST',
          '/api/v2/schedules',
          {
            kind: 'exchange',
            template: {
              wallet_uuid: wallet,
              from_uuid: CUR.USDT_TRON,
              to_uuid: CUR.EUR,
              amount_from: '10',
            },
            rrule: 'FREQ=DAILY',
            starts_at: startsAt.toISOString(),
            time_zone: 'Europe/Berlin',
          },
          201,
        ),
      )
    }
    expect(Date.now()).toBeLessThan(startsAt.getTime())

    // The runs begin at startsAt and wait 1.5 s each for their quote: kill the server then.
    await new Promise((resolve) => setTimeout(resolve, startsAt.getTime() - Date.now() + 700))
    await stopServer(server, 'SIGKILL')
    // What the kill left, read with the server down: runs begun and not ended.
    const left = await openDatabase({ databaseUrl: env.DATABASE_URL, dataDir: place.dataDir })
    const begun = await left.db
      .selectFrom('schedule_runs')
      .select(['status'])
      .where('status', '=', 'RUNNING')
      .execute()
    await left.close()
    expect(begun.length).toBeGreaterThan(0)
    server = await startServer(env)

    const deadline = Date.now() + 60_000
    let schedules: Schedule[] = []
    for (;;) {
      schedules = (await call<ScheduleList>('GET', '/api/v2/schedules?limit=10')).data
      const done = schedules.filter((one) =>
        one.recent_runs.some(
          (run) => run.status !== 'RUNNING' && run.occurrence_at === startsAt.toISOString(),
        ),
      )
      if (done.length === made.length) break
      if (Date.now() > deadline) throw new Error(`runs still open: ${JSON.stringify(schedules)}`)
      await new Promise((resolve) => setTimeout(resolve, 200))
    }

    // One run per schedule and occurrence, each with its own order; one order per run, no more.
    const runs = schedules.flatMap((one) => one.recent_runs)
    expect(runs).toHaveLength(4)
    expect(runs.every((run) => run.status === 'COMPLETE' && run.order_id !== null)).toBe(true)
    const orders = (await call<OrderList>('GET', '/api/v1/orders?limit=100')).data
    expect(orders.map((order) => order.id).sort()).toEqual(runs.map((run) => run.order_id).sort())
    expect(
      orders.every(
        (order) =>
          order.request_id === `schedule:${runs.find((run) => run.order_id === order.id)!.id}`,
      ),
    ).toBe(true)

    await stopServer(server, 'SIGTERM')
    const database = await openDatabase({ databaseUrl: env.DATABASE_URL, dataDir: place.dataDir })
    try {
      await expectLedgerInvariants(database)
    } finally {
      await database.close()
    }
  }, 150_000)
})
