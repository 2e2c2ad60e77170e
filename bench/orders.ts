/**
 * Orders per second: internal exchanges (calc + place, then settled by the job
 * runner) against PostgreSQL next to pgbench's TPC-B on the same cluster in
 * the same run, printed as a ratio; and the same orders on embedded PGlite.
 * A TPC-B transaction is five statements on four tables; placing an order is
 * two HTTP calls, a firm quote and one transaction holding funds, writing the
 * order, its records and its job — the ratio says what the product costs over
 * the database's raw speed on this machine.
 */
import { execFile, spawn } from 'node:child_process'
import { join } from 'node:path'
import { createInterface } from 'node:readline'
import { promisify } from 'node:util'
import pg from 'pg'
import { DEMO_TENANT_ID } from '../contract/tenancy.ts'
import { findPostgresBin, startCluster } from '../tests/support/postgres-cluster.ts'
import { BENCH_FROM_CURRENCY, BENCH_TO_CURRENCY } from './order-currencies.ts'

const run = promisify(execFile)

export interface BenchRow {
  measure: string
  value: string
  target: string
}

export interface Ready {
  appUrl: string
  accessToken: string
  walletUuid: string
}

export interface OrderLoad {
  placed: number
  seconds: number
  /** Seconds from the end of the load until the job runner had settled every order. */
  settleSeconds: number
}

const CONNECTIONS = 10

/** Starts bench/order-server.ts on the given database and waits for its JSON line. */
async function startOrderServer(databaseUrl: string | undefined) {
  const child = spawn(process.execPath, ['--import', 'tsx', 'bench/order-server.ts'], {
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, BENCH_DATABASE_URL: databaseUrl ?? '' },
  })
  const ready = await new Promise<Ready>((resolve, reject) => {
    createInterface({ input: child.stdout }).once('line', (line) => resolve(JSON.parse(line)))
    child.once('exit', (code) => reject(new Error(`order bench server exited with ${code}`)))
  })
  return { ready, stop: () => child.kill('SIGTERM') }
}

/**
 * `connections` loops of quote + place for `seconds`, loop i as user i of `servers` (one
 * user: every loop on one wallet); then waits until every order placed is COMPLETE.
 */
export async function loadOrders(
  servers: Ready[],
  seconds: number,
  connections = CONNECTIONS,
): Promise<OrderLoad> {
  const headersOf = (server: Ready) => ({
    authorization: server.accessToken,
    'x-tenant-id': DEMO_TENANT_ID,
    'x-app-env': 'web',
    'content-type': 'application/json',
  })
  const completed = async () => {
    let total = 0
    for (const server of servers) {
      const url = new URL('/api/v1/orders', server.appUrl)
      url.search = new URLSearchParams({ status: 'COMPLETE', limit: '1' }).toString()
      total += (
        (await (await fetch(url, { headers: headersOf(server) })).json()) as { total: number }
      ).total
    }
    return total
  }
  const before = await completed()

  let placed = 0
  const started = performance.now()
  const deadline = started + seconds * 1000
  const loop = async (server: Ready) => {
    const headers = headersOf(server)
    const calc = new URL('/api/v1/orders/calc', server.appUrl)
    calc.search = new URLSearchParams({
      order_type: 'EXCHANGE_CRYPTO_INTERNAL',
      wallet_uuid: server.walletUuid,
      from_uuid: BENCH_FROM_CURRENCY,
      to_uuid: BENCH_TO_CURRENCY,
      amount_from: '25',
    }).toString()
    const place = new URL('/api/v1/orders/EXCHANGE_CRYPTO_INTERNAL', server.appUrl)
    while (performance.now() < deadline) {
      const quote = await fetch(calc, { headers })
      if (!quote.ok) throw new Error(`calc answered ${quote.status}: ${await quote.text()}`)
      const { quote_id } = (await quote.json()) as { quote_id: string }
      const order = await fetch(place, {
        method: 'POST',
        headers,
        body: JSON.stringify({ quote_id, request_id: crypto.randomUUID() }),
      })
      if (order.status !== 201)
        throw new Error(`place answered ${order.status}: ${await order.text()}`)
      await order.body?.cancel()
      placed++
    }
  }
  await Promise.all(
    Array.from({ length: connections }, (_, i) => loop(servers[i % servers.length]!)),
  )
  const loaded = performance.now()

  const settleDeadline = loaded + 120_000
  for (;;) {
    const done = (await completed()) - before
    if (done >= placed) break
    if (performance.now() > settleDeadline) {
      throw new Error(`${placed - done} of ${placed} orders did not settle in 120 s`)
    }
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  return {
    placed,
    seconds: (loaded - started) / 1000,
    settleSeconds: (performance.now() - loaded) / 1000,
  }
}

/** pgbench's TPC-B-like default script: initialise at scale 10, then CONNECTIONS clients. */
async function pgbenchTps(bin: string, url: string, seconds: number): Promise<number> {
  const pgbench = join(bin, 'pgbench')
  await run(pgbench, ['-i', '-q', '-s', '10', url])
  const { stdout } = await run(pgbench, [
    '-c',
    String(CONNECTIONS),
    '-j',
    '2',
    '-T',
    String(seconds),
    url,
  ])
  const match = /tps = ([\d.]+) \(without initial connection time\)/.exec(stdout)
  if (!match) throw new Error(`pgbench printed no tps:\n${stdout}`)
  return Number(match[1])
}

async function createDatabase(url: string, name: string): Promise<string> {
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  try {
    await client.query(`create database ${name}`)
  } finally {
    await client.end()
  }
  const databaseUrl = new URL(url)
  databaseUrl.pathname = `/${name}`
  return databaseUrl.toString()
}

const rate = (load: OrderLoad) => load.placed / load.seconds
const describe = (load: OrderLoad) =>
  `${rate(load).toFixed(0)} orders/s placed (${load.placed} in ${load.seconds.toFixed(1)} s), all settled ${load.settleSeconds.toFixed(1)} s later`

export async function measureOrders(seconds: number): Promise<BenchRow[]> {
  const rows: BenchRow[] = []
  const bin = findPostgresBin()
  if (bin) {
    const cluster = await startCluster(bin)
    try {
      const tps = await pgbenchTps(bin, await createDatabase(cluster.url, 'pgbench'), seconds)
      const server = await startOrderServer(await createDatabase(cluster.url, 'orders'))
      try {
        const load = await loadOrders([server.ready], seconds)
        rows.push(
          {
            measure: `pgbench TPC-B, ${CONNECTIONS} clients (PostgreSQL 15)`,
            value: `${tps.toFixed(0)} tps`,
            target: 'yardstick',
          },
          {
            measure: 'internal exchange orders (PostgreSQL)',
            value: describe(load),
            target: '—',
          },
          {
            measure: 'ratio orders / TPC-B (PostgreSQL)',
            value: `${((rate(load) / tps) * 100).toFixed(1)} %`,
            target: 'watch for regressions',
          },
        )
      } finally {
        server.stop()
      }
    } finally {
      await cluster.stop()
    }
  }
  const embedded = await startOrderServer(undefined)
  try {
    const load = await loadOrders([embedded.ready], seconds)
    rows.push({ measure: 'internal exchange orders (PGlite)', value: describe(load), target: '—' })
  } finally {
    embedded.stop()
  }
  return rows
}
