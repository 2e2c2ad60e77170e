/**
 * Orders per second against the database's own speed: internal exchanges
 * (a firm quote, then the placement) by CONNECTIONS people at once, against
 * pgbench's TPC-B (scale 10, CONNECTIONS clients) on the same PostgreSQL
 * cluster, interleaved round by round; the same with every client on one
 * wallet (its balance rows are then the contended ones); the same orders on
 * the embedded database as `npm start` runs it; and the placement's latency
 * at an offered 100 orders per second, open loop, timed from each order's
 * scheduled send (a late send counts its wait). The job runner settles the
 * orders meanwhile, as it would in production. And the CPU each party spends
 * an order and a TPC-B transaction (process-cpu.ts): on a machine whose cores
 * the database, the server and the clients share, the ratio is what their sum
 * allows, and PostgreSQL's share alone sets a ceiling no server could pass.
 */
import { join } from 'node:path'
import pg from 'pg'
import {
  BTC,
  type Cluster,
  CONNECTIONS,
  call,
  createWallet,
  DURATION_S,
  dataDir,
  fundWithUsdt,
  goalRow,
  percentile,
  ROUNDS,
  type Row,
  run,
  type Server,
  signUp,
  skippedRow,
  startServer,
  USDT_TRON,
  valueRow,
} from './lib.ts'
import { send } from './load-client.ts'
import { cpuRows, embeddedCpuRows, per } from './order-cpu.ts'
import { type CpuMs, cpuDuring } from './process-cpu.ts'

/** Issue 29's step for orders ÷ TPC-B: its goal row judges it, the CPU rows price it. */
const ORDERS_STEP = 0.25

export interface Trader {
  token: string
  walletId: string
}

/** `count` people, each with an exchange wallet holding 100 million USDT. */
async function traders(base: string, count: number): Promise<Trader[]> {
  return Promise.all(
    Array.from({ length: count }, async () => {
      const token = await signUp(base)
      const walletId = await createWallet(base, token, 'exchange')
      await fundWithUsdt(base, token, walletId, '100000000')
      return { token, walletId }
    }),
  )
}

/** One order: a firm quote for 25 USDT in bitcoin, then its placement; the placement's ms. */
async function order(base: string, trader: Trader, quoteId?: string): Promise<number> {
  const id = quoteId ?? (await quote(base, trader))
  const started = performance.now()
  await placeQuote(base, trader, id)
  return performance.now() - started
}

function quote(base: string, trader: Trader): Promise<string> {
  const query = new URLSearchParams({
    order_type: 'EXCHANGE_CRYPTO_INTERNAL',
    wallet_uuid: trader.walletId,
    from_uuid: USDT_TRON,
    to_uuid: BTC,
    amount_from: '25',
  })
  return send(base, 'GET', `/api/v1/orders/calc?${query}`, auth(trader), undefined, 200).then(
    (answer) => (JSON.parse(answer.toString()) as { quote_id: string }).quote_id,
  )
}

const auth = (trader: Trader) => ({ authorization: trader.token })

async function placeQuote(base: string, trader: Trader, quoteId: string) {
  await send(
    base,
    'POST',
    '/api/v1/orders/EXCHANGE_CRYPTO_INTERNAL',
    auth(trader),
    { quote_id: quoteId, request_id: crypto.randomUUID() },
    201,
  )
}

/** CONNECTIONS loops of quote + place for `seconds`, each on its trader; orders per second. */
export async function closedLoop(
  base: string,
  clients: Trader[],
  seconds: number,
): Promise<number> {
  let placed = 0
  const started = performance.now()
  const deadline = started + seconds * 1000
  await Promise.all(
    clients.map(async (trader) => {
      while (performance.now() < deadline) {
        await order(base, trader)
        placed++
      }
    }),
  )
  return placed / ((performance.now() - started) / 1000)
}

/**
 * Placements sent at `rate` per second for `seconds`, whatever the answers do
 * meanwhile, from a pool of quotes fetched ahead; each latency is timed from
 * its scheduled send. Answers the latencies and how many were sent.
 */
async function openLoop(base: string, clients: Trader[], rate: number, seconds: number) {
  const total = Math.round(rate * seconds)
  const pool: { trader: Trader; quoteId: string }[] = []
  let next = 0
  const refill = async () => {
    const trader = clients[next++ % clients.length]!
    pool.push({ trader, quoteId: await quote(base, trader) })
  }
  // A head start of a second's worth, then kept ahead by the quotes' own loop.
  await Promise.all(Array.from({ length: rate }, refill))
  let quoting = true
  const quoter = (async () => {
    while (quoting) {
      if (pool.length < rate) await refill()
      else await new Promise((resolve) => setTimeout(resolve, 5))
    }
  })()
  const latencies: number[] = []
  const sends: Promise<void>[] = []
  const start = performance.now() + 50
  for (let i = 0; i < total; i++) {
    const scheduled = start + (i * 1000) / rate
    const wait = scheduled - performance.now()
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait))
    sends.push(
      (async () => {
        const ready = pool.shift() ?? {
          trader: clients[0]!,
          quoteId: await quote(base, clients[0]!),
        }
        await placeQuote(base, ready.trader, ready.quoteId)
        latencies.push(performance.now() - scheduled)
      })(),
    )
  }
  await Promise.all(sends)
  quoting = false
  await quoter
  return latencies
}

/** pgbench's TPC-B-like default script with CONNECTIONS clients; transactions per second. */
async function pgbench(bin: string, url: string, seconds: number): Promise<number> {
  const { stdout } = await run(join(bin, 'pgbench'), [
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

/** Seconds until every trader's orders are COMPLETE (the job runner's backlog), at most 120. */
async function settled(base: string, clients: Trader[]): Promise<number> {
  const started = performance.now()
  for (;;) {
    let open = 0
    for (const trader of clients) {
      const page = await call<{ total?: number }>(
        base,
        trader.token,
        'GET',
        '/api/v1/orders?status=NEW&limit=1&with_total=true',
      )
      open += page.total ?? 0
    }
    const seconds = (performance.now() - started) / 1000
    if (open === 0 || seconds > 120) return seconds
    await new Promise((resolve) => setTimeout(resolve, 250))
  }
}

/** Seconds until no job is due any more (the events' dispatch included), at most 120. */
async function jobsDone(databaseUrl: string): Promise<number> {
  const started = performance.now()
  const client = new pg.Client({ connectionString: databaseUrl })
  await client.connect()
  try {
    for (;;) {
      const { rows } = await client.query<{ due: string }>(
        'select count(*) as due from jobs where done_at is null and run_at <= now()',
      )
      const seconds = (performance.now() - started) / 1000
      if (Number(rows[0]!.due) === 0 || seconds > 120) return seconds
      await new Promise((resolve) => setTimeout(resolve, 100))
    }
  } finally {
    await client.end()
  }
}

export async function measureOrders(postgres: Cluster | undefined): Promise<Row[]> {
  if (!postgres) {
    return [skippedRow('orders ÷ pgbench TPC-B', 'no PostgreSQL in /usr/lib/postgresql/*/bin')]
  }
  const servers: Server[] = []
  try {
    const benchUrl = await postgres.database('pgbench')
    await run(join(postgres.bin, 'pgbench'), ['-i', '-q', '-s', '10', benchUrl])
    const ordersUrl = await postgres.database('orders')
    const onPostgres = await startServer({ dataDir: dataDir('orders-pg'), databaseUrl: ordersUrl })
    servers.push(onPostgres)
    const embedded = await startServer({ dataDir: dataDir('orders') })
    servers.push(embedded)
    const [pgTraders, embeddedTraders] = await Promise.all([
      traders(onPostgres.url, CONNECTIONS),
      traders(embedded.url, CONNECTIONS),
    ])
    const hot = Array.from({ length: CONNECTIONS }, () => pgTraders[0]!)

    // Warm-up: the first calls of each route, the pools' connections, the job runner going.
    await pgbench(postgres.bin, benchUrl, 1)
    await closedLoop(onPostgres.url, pgTraders, 2)
    await closedLoop(embedded.url, embeddedTraders, 2)

    const tps: number[] = []
    const spread: number[] = []
    const contended: number[] = []
    const onEmbedded: number[] = []
    // Each party's CPU per TPC-B transaction and per order, round by round.
    const cpuPerTransaction: CpuMs[] = []
    const cpuPerOrder: CpuMs[] = []
    const cpuPerEmbeddedOrder: CpuMs[] = []
    for (let round = 0; round < ROUNDS; round++) {
      const yardstick = await cpuDuring(() => pgbench(postgres.bin, benchUrl, DURATION_S))
      tps.push(yardstick.result)
      const orders = await cpuDuring(
        () => closedLoop(onPostgres.url, pgTraders, DURATION_S),
        onPostgres.group,
      )
      spread.push(orders.result)
      if (yardstick.cpuMs !== undefined && orders.cpuMs !== undefined) {
        cpuPerTransaction.push(per(yardstick.cpuMs, yardstick.result * DURATION_S))
        cpuPerOrder.push(per(orders.cpuMs, orders.result * DURATION_S))
      }
      contended.push(await closedLoop(onPostgres.url, hot, DURATION_S))
      const embeddedOrders = await cpuDuring(
        () => closedLoop(embedded.url, embeddedTraders, DURATION_S),
        embedded.group,
      )
      onEmbedded.push(embeddedOrders.result)
      if (embeddedOrders.cpuMs !== undefined) {
        cpuPerEmbeddedOrder.push(per(embeddedOrders.cpuMs, embeddedOrders.result * DURATION_S))
      }
    }
    // What the closed loops left for the job runner (on PostgreSQL, where the bench can look).
    await closedLoop(onPostgres.url, pgTraders, DURATION_S)
    const jobsAfterLoad = await jobsDone(ordersUrl)
    const openPg: number[] = []
    const openEmbedded: number[] = []
    for (let round = 0; round < ROUNDS; round++) {
      openPg.push(percentile(await openLoop(onPostgres.url, pgTraders, 100, DURATION_S), 99))
      openEmbedded.push(
        percentile(await openLoop(embedded.url, embeddedTraders, 100, DURATION_S), 99),
      )
    }
    const backlogPg = await settled(onPostgres.url, pgTraders)
    const backlogEmbedded = await settled(embedded.url, embeddedTraders)

    const perRound = (values: number[], by: number[]) => values.map((v, i) => v / by[i]!)
    return [
      valueRow(`pgbench TPC-B, scale 10, ${CONNECTIONS} clients (PostgreSQL 15)`, tps, 'tps', {
        goal: 'yardstick',
      }),
      valueRow(`internal exchange orders, ${CONNECTIONS} people (PostgreSQL)`, spread, 'orders/s', {
        goal: 'see ratio',
      }),
      // Issue 29's steps and goals.
      goalRow('ratio orders ÷ TPC-B tps (PostgreSQL)', perRound(spread, tps), {
        at: 'least',
        step: ORDERS_STEP,
        bound: 0.5,
      }),
      valueRow(
        `internal exchange orders, ${CONNECTIONS} clients on one wallet (PostgreSQL)`,
        contended,
        'orders/s',
        {
          goal: 'see ratio',
        },
      ),
      goalRow('ratio one-wallet orders ÷ TPC-B tps (PostgreSQL)', perRound(contended, tps), {
        at: 'least',
        step: 0.15,
        bound: 0.3,
      }),
      goalRow('place latency p99 at an offered 100 orders/s (PostgreSQL)', openPg, {
        at: 'most',
        step: 20,
        bound: 10,
        unit: 'ms',
        digits: 1,
      }),
      goalRow('place latency p99 at an offered 100 orders/s (PGlite as npm start)', openEmbedded, {
        at: 'most',
        step: 20,
        bound: 10,
        unit: 'ms',
        digits: 1,
      }),
      valueRow(
        `internal exchange orders, ${CONNECTIONS} people (PGlite as npm start)`,
        onEmbedded,
        'orders/s',
        {
          goal: 'see ratio',
        },
      ),
      goalRow('ratio orders PGlite ÷ PostgreSQL', perRound(onEmbedded, spread), {
        at: 'least',
        step: 0.4,
        bound: 0.6,
      }),
      ...cpuRows(cpuPerOrder, cpuPerTransaction, tps, ORDERS_STEP),
      ...embeddedCpuRows(cpuPerEmbeddedOrder),
      valueRow(
        'every job done (events told) after a closed loop of orders (PostgreSQL)',
        [jobsAfterLoad],
        's',
        { digits: 1, goal: 'info' },
      ),
      valueRow(
        'all orders settled by the job runner, after the load (PostgreSQL / PGlite)',
        [backlogPg],
        `s / ${backlogEmbedded.toFixed(1)} s`,
        { digits: 1, goal: 'info' },
      ),
    ]
  } finally {
    await Promise.all(servers.map((server) => server.stop()))
  }
}
