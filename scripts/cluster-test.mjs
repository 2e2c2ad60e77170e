// The scale-out topology under load, end to end (issue 19), run by .ci/run after `npm test`:
// starts `npm run cluster` with three nodes, has many clients move money through HAProxy,
// kills one node with SIGKILL and stops another with SIGTERM mid-run, keeps going, then
// checks the ledger in SQL on the primary and the replica's history pages against the
// primary's. Prints its figures; exits 1 when a check fails. Under five minutes.
//
//   node scripts/cluster-test.mjs          (CLUSTER_TEST_CLIENTS, CLUSTER_TEST_SECONDS tune it)
import { spawn } from 'node:child_process'
import { randomUUID } from 'node:crypto'
import { connect } from 'node:net'
import { createInterface } from 'node:readline'
import pg from 'pg'

const CLIENTS = Number(process.env.CLUSTER_TEST_CLIENTS ?? 24)
const LOAD_SECONDS = Number(process.env.CLUSTER_TEST_SECONDS ?? 60)
const TENANT = '2b7c6f0e-9d4a-4f3e-8a1b-5c6d7e8f9a01'
const EUR = 'fc3b2351-726b-4cca-abda-4cfdcf917b0b'
const USDT_TRON = 'b3115d89-344b-4d51-abfa-76863eddec04'
/** Paid out by the sandbox bank after SANDBOX_BANK_MS (server/domain/orders/order-fixtures.ts). */
const IBAN_OK = 'DE89370400440532013000'
/** Outside the platform: a withdrawal there goes by the sandbox chain. */
const EXTERNAL_TRON = 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t'
const FINAL = ['COMPLETE', 'FAILED', 'CANCELED', 'ERROR']

const startedAt = performance.now()
const elapsed = () => ((performance.now() - startedAt) / 1000).toFixed(1)
const log = (line) => console.log(`[${elapsed().padStart(6)} s] ${line}`)
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms))

// ---------------------------------------------------------------- the cluster
log(`starting the cluster: 3 nodes (npm run cluster -- --nodes 3 --port 0 --json)`)
const cluster = spawn(
  process.execPath,
  ['--import', 'tsx', 'scripts/cluster.ts', '--nodes', '3', '--port', '0', '--json', '--no-build'],
  {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      ...process.env,
      LOG_LEVEL: 'warn',
      // A node killed mid-job: its leases run out in seconds, not the default minute.
      JOBS_LEASE_MS: '5000',
      JOBS_POLL_MS: '100',
      SANDBOX_BANK_MS: '1000',
      SANDBOX_BLOCK_MS: '300',
      SANDBOX_MAX_CONFIRMATIONS: '2',
      RATES_SANDBOX_LATENCY_MS: '5',
      QUOTE_TTL_SECONDS: '600',
      AUTH_RATE_LIMIT_PER_IP: '100000',
      AUTH_RATE_LIMIT_PER_EMAIL: '100000',
    },
  },
)
const clusterEvents = []
createInterface({ input: cluster.stderr }).on('line', (line) => {
  clusterEvents.push({ at: performance.now(), line: line.trim() })
  if (/exited|restarting|not restarted/.test(line)) log(`cluster: ${line.trim()}`)
})
const clusterExit = new Promise((resolve) => cluster.once('exit', (code) => resolve(code)))
const info = await Promise.race([
  new Promise((resolve) =>
    createInterface({ input: cluster.stdout }).once('line', (line) => resolve(JSON.parse(line))),
  ),
  clusterExit.then((code) => {
    throw new Error(
      `the cluster exited (${code}) before it was up:\n${clusterEvents.map((e) => e.line).join('\n')}`,
    )
  }),
])
log(`cluster up at ${info.url}`)

const failures = []
const figures = []
const check = (name, ok, detail = '') => {
  log(`${ok ? 'ok  ' : 'FAIL'} ${name}${detail ? ` — ${detail}` : ''}`)
  if (!ok) failures.push(name)
}
const figure = (name, value) => figures.push([name, value])

const primary = new pg.Pool({ connectionString: info.primaryUrl, max: 4 })
const replica = new pg.Pool({ connectionString: info.replicaUrl, max: 2 })

function seconds(since) {
  return ((performance.now() - since) / 1000).toFixed(1)
}

// ---------------------------------------------------------------- HTTP through HAProxy
const counters = { requests: 0, retried: 0, replayed: 0, refusedFunds: 0, unexpected: 0 }
const unexpected = []

/**
 * One call through HAProxy. A connection error or a 502/503/504 (a node killed with the
 * request in hand) is retried, as a real client would: GETs freely, a placement under its
 * request_id (the server answers the first answer again).
 */
async function call(method, path, { token, body, retry = true } = {}) {
  const v2 = path.startsWith('/api/v2/')
  for (let attempt = 1; ; attempt++) {
    counters.requests++
    let response
    let text
    try {
      response = await fetch(`${info.url}${path}`, {
        method,
        headers: {
          'x-tenant-id': TENANT,
          'x-app-env': 'web',
          'content-type': 'application/json',
          ...(token && { authorization: v2 ? `Bearer ${token}` : token }),
        },
        ...(body !== undefined && { body: JSON.stringify(body) }),
      })
      if (retry && [502, 503, 504].includes(response.status) && attempt < 10) {
        await response.body?.cancel()
        counters.retried++
        await sleep(100 * attempt)
        continue
      }
      // Inside the try: a node killed after its headers cuts the body ("terminated").
      text = await response.text()
    } catch (error) {
      if (!retry || attempt >= 10) throw error
      counters.retried++
      await sleep(100 * attempt)
      continue
    }
    return {
      status: response.status,
      body:
        text && response.headers.get('content-type')?.includes('json') ? JSON.parse(text) : text,
      replayed: response.headers.get('idempotent-replayed') === 'true',
    }
  }
}

async function ok(method, path, options = {}, status = 200) {
  const response = await call(method, path, options)
  if (response.status !== status) {
    throw new Error(`${method} ${path}: ${response.status} ${JSON.stringify(response.body)}`)
  }
  return response.body
}

// ---------------------------------------------------------------- clients
class Client {
  constructor(index) {
    this.index = index
    this.placed = new Map() // request_id → order id
  }

  async setUp() {
    const email = `cluster-${this.index}-${randomUUID()}@example.com`
    const pair = await ok(
      'POST',
      '/api/v2/auth/sign-up/password/email',
      { body: { email, password: 'correct horse battery staple' }, retry: false },
      201,
    )
    this.token = pair.access_token
    await ok('POST', '/api/sandbox/kyc/decision', {
      token: this.token,
      body: { status: 'APPROVED' },
    })
    this.wallet = (
      await ok('POST', '/api/v2/wallets', { token: this.token, body: { type: 'personal' } }, 201)
    ).uuid
    this.address = (
      await ok(
        'POST',
        `/api/v2/wallets/${this.wallet}/addresses/tron`,
        { token: this.token, body: {} },
        201,
      )
    ).address
    // A payout destination and payouts ask for a second look: a fresh one-time code (issue 21).
    await ok('POST', '/api/v2/user/step-up/otp/send', { token: this.token, retry: false })
    const outbox = await ok('GET', `/api/sandbox/outbox?to=${encodeURIComponent(email)}`)
    const code = outbox.data.find((message) => message.purpose === 'step_up')?.code
    await ok('POST', '/api/v2/user/step-up/otp', { token: this.token, body: { token: code } })
    const counterparty = await ok(
      'POST',
      `/api/v2/counterparties/${this.wallet}`,
      {
        token: this.token,
        body: { type: 'INDIVIDUAL', first_name: 'Anna', last_name: 'Schmidt', country: 'DE' },
      },
      201,
    )
    this.destination = (
      await ok(
        'POST',
        `/api/v2/counterparties/${this.wallet}/${counterparty.counterparty_account_id}/destinations`,
        { token: this.token, body: { type: 'SEPA', iban: IBAN_OK } },
        201,
      )
    ).counterparty_destination_id
    // Euros in by bank transfer, then some of them into tether.
    const deposit = await this.order({
      order_type: 'DEPOSIT_FIAT_SEPA',
      from_uuid: EUR,
      amount_from: '20000.00',
    })
    await ok(
      'POST',
      '/api/sandbox/bank-transfers',
      {
        body: {
          reference: deposit.deposit_instructions.reference,
          amount: deposit.total,
          currency: deposit.from.currency,
        },
      },
      201,
    )
    const buy = await this.order({
      order_type: 'EXCHANGE_CRYPTO_INTERNAL',
      from_uuid: EUR,
      to_uuid: USDT_TRON,
      amount_from: '5000.00',
    })
    await this.settled(buy.id)
  }

  /** A firm quote, then the order under a fresh request_id: the placed order, or undefined. */
  async order(query) {
    const search = new URLSearchParams({ wallet_uuid: this.wallet, ...query })
    const quote = await call('GET', `/api/v1/orders/calc?${search}`, { token: this.token })
    if (quote.status === 422 && quote.body?.code === 'INSUFFICIENT_FUNDS') {
      counters.refusedFunds++
      return undefined
    }
    if (quote.status !== 200) return this.unexpected('quote', quote)
    const requestId = randomUUID()
    const placed = await call('POST', `/api/v1/orders/${query.order_type}`, {
      token: this.token,
      body: { quote_id: quote.body.quote_id, request_id: requestId },
    })
    if (placed.replayed) counters.replayed++
    if (placed.status === 422 && placed.body?.code === 'INSUFFICIENT_FUNDS') {
      counters.refusedFunds++
      return undefined
    }
    if (placed.status !== 201) return this.unexpected('place', placed)
    const earlier = this.placed.get(requestId)
    if (earlier && earlier !== placed.body.id) this.unexpected('a second order for one key', placed)
    this.placed.set(requestId, placed.body.id)
    return placed.body
  }

  unexpected(what, response) {
    counters.unexpected++
    if (unexpected.length < 10) {
      unexpected.push(`${what}: ${response.status} ${JSON.stringify(response.body).slice(0, 300)}`)
    }
    return undefined
  }

  async settled(orderId, timeoutMs = 60_000) {
    const deadline = Date.now() + timeoutMs
    for (;;) {
      const order = await ok('GET', `/api/v1/orders/${orderId}`, { token: this.token })
      if (FINAL.includes(order.status)) return order
      if (Date.now() > deadline) throw new Error(`order ${orderId} still ${order.status}`)
      await sleep(200)
    }
  }

  /**
   * One random step of money movement, and now and then the reads a person makes. Crypto
   * withdrawals, internal or not, have a minimum of about 5 USDT.
   */
  async step(peers) {
    const roll = Math.random()
    const amount = (low, high, places) => (low + Math.random() * (high - low)).toFixed(places)
    if (roll < 0.35) {
      await this.order({
        order_type: 'EXCHANGE_CRYPTO_INTERNAL',
        from_uuid: EUR,
        to_uuid: USDT_TRON,
        amount_from: amount(10, 50, 2),
      })
    } else if (roll < 0.6) {
      await this.order({
        order_type: 'EXCHANGE_CRYPTO_INTERNAL',
        from_uuid: USDT_TRON,
        to_uuid: EUR,
        amount_from: amount(6, 30, 2),
      })
    } else if (roll < 0.8) {
      const peer = peers[Math.floor(Math.random() * peers.length)]
      if (peer === this) return
      // To another client's deposit address: an internal transfer, settled in the ledger.
      await this.order({
        order_type: 'WITHDRAWAL_CRYPTO',
        from_uuid: USDT_TRON,
        address: peer.address,
        amount_from: amount(6, 10, 2),
      })
    } else if (roll < 0.9) {
      await this.order({
        order_type: 'WITHDRAWAL_FIAT_SEPA',
        from_uuid: EUR,
        destination_id: this.destination,
        amount_from: amount(5, 20, 2),
      })
    } else {
      await this.order({
        order_type: 'WITHDRAWAL_CRYPTO',
        from_uuid: USDT_TRON,
        address: EXTERNAL_TRON,
        amount_from: amount(6, 12, 2),
      })
    }
    if (Math.random() < 0.3) {
      const reads = [
        call('GET', `/api/v2/wallets/${this.wallet}`, { token: this.token }),
        call('GET', `/api/v2/wallets/${this.wallet}/transactions?limit=20`, { token: this.token }),
        call('GET', '/api/v2/activity?limit=20', { token: this.token }),
      ]
      for (const response of await Promise.all(reads)) {
        if (response.status !== 200) this.unexpected('read', response)
      }
    }
  }
}

// ---------------------------------------------------------------- the run
async function run() {
  await checkMigrations()
  await checkSessionRevocation()

  log(`${CLIENTS} clients: sign up, verify, open a wallet, get euros and tether`)
  const setUpAt = performance.now()
  const clients = Array.from({ length: CLIENTS }, (_, i) => new Client(i + 1))
  for (let i = 0; i < clients.length; i += 8) {
    await Promise.all(clients.slice(i, i + 8).map((client) => client.setUp()))
  }
  figure('clients set up', `${CLIENTS} in ${seconds(setUpAt)} s`)

  log(`load: ${LOAD_SECONDS} s of money movement; kill -9 node-2 at 35 %, SIGTERM node-3 at 65 %`)
  const statsBefore = await nodeStats()
  const samplers = sampleWhileLoading()
  const loadAt = performance.now()
  const deadline = loadAt + LOAD_SECONDS * 1000
  const loops = clients.map(async (client) => {
    while (performance.now() < deadline) await client.step(clients)
  })
  const disruptions = disrupt(loadAt)
  await Promise.all(loops)
  const loadSeconds = (performance.now() - loadAt) / 1000
  const recovered = await disruptions
  await samplers.stop()
  const placed = clients.reduce((sum, client) => sum + client.placed.size, 0)
  figure(
    'orders placed under load',
    `${placed} in ${loadSeconds.toFixed(1)} s = ${(placed / loadSeconds).toFixed(1)} orders/s`,
  )
  figure(
    'HTTP requests through HAProxy',
    `${counters.requests} (${(counters.requests / ((performance.now() - setUpAt) / 1000)).toFixed(0)}/s over the run)`,
  )
  figure('retried by clients (node gone mid-request)', String(counters.retried))
  figure('placements answered as replays', String(counters.replayed))
  figure('refused for funds (422, expected)', String(counters.refusedFunds))
  check('no unexpected answer reached a client', counters.unexpected === 0, unexpected.join(' | '))
  const statsAfter = await nodeStats()
  figure(
    'requests per node (HAProxy)',
    statsAfter
      .map((row) => {
        const before = statsBefore.find((b) => b.name === row.name)?.requests ?? 0
        return `${row.name} ${row.requests - before} (${row.status}, ${row.downs} down)`
      })
      .join(', '),
  )
  figure('node-2 after kill -9', recovered.killed)
  figure('node-3 after SIGTERM', recovered.terminated)
  figure('replica lag under load (pg_stat_replication)', samplers.lag())
  figure('replica lag as node-1 exports it (db_replica_lag_seconds)', samplers.metric())
  check(
    'every node exports the replica lag, labelled with its name',
    await lagExported(),
    'db_replica_lag_seconds{node="node-N"} a number on each',
  )
  figure('PgBouncer', samplers.pooler())

  log('waiting for every order to reach a final state')
  const settleAt = performance.now()
  const open = await waitForFinal()
  check('no order is stuck', open === 0, `${open} open after ${seconds(settleAt)} s`)
  figure('all orders final', `${seconds(settleAt)} s after the load`)

  await checkLedger(clients)
  await checkReplica(clients)
}

async function checkMigrations() {
  const { rows } = await primary.query(
    `select count(*)::int as versions, count(distinct applied_at)::int as transactions
     from schema_migrations`,
  )
  const [row] = rows
  // now() is the transaction's start: one value means one node's one transaction did them all.
  check(
    'three nodes started together: the migrations ran once, in one transaction',
    row.versions > 0 && row.transactions === 1,
    `${row.versions} versions, ${row.transactions} transaction(s)`,
  )
}

/** One call straight to a node, past HAProxy. */
async function onNode(name, method, path, { token, body } = {}) {
  const node = info.nodes.find((n) => n.name === name)
  const response = await fetch(`${node.url}${path}`, {
    method,
    headers: {
      'x-tenant-id': TENANT,
      'x-app-env': 'web',
      'content-type': 'application/json',
      ...(token && { authorization: `Bearer ${token}` }),
    },
    ...(body !== undefined && { body: JSON.stringify(body) }),
  })
  return { status: response.status, body: await response.text() }
}

/**
 * Issue 29: node-2 keeps the session in memory; node-1 ends it; how long node-2 goes on
 * answering it (each node hears the end on its LISTEN connection to the primary).
 */
async function checkSessionRevocation() {
  // node-2's first 401 compiles its answer's serialiser: not part of what is measured.
  await onNode('node-2', 'GET', '/api/v2/user', { token: 'not-a-token' })
  const times = []
  for (let i = 0; i < 5; i++) {
    const signedUp = await onNode('node-1', 'POST', '/api/v2/auth/sign-up/password/email', {
      body: {
        email: `revoke-${randomUUID()}@example.com`,
        password: 'correct horse battery staple',
      },
    })
    const pair = JSON.parse(signedUp.body)
    for (let warm = 0; warm < 2; warm++) {
      await onNode('node-2', 'GET', '/api/v2/user', { token: pair.access_token })
    }
    const out = await onNode('node-1', 'POST', '/api/v2/auth/sign-out', {
      body: { refresh_token: pair.refresh_token },
    })
    if (out.status !== 204) throw new Error(`sign-out on node-1: ${out.status} ${out.body}`)
    const endedAt = performance.now()
    let status = 200
    while (status === 200 && performance.now() - endedAt < 5_000) {
      status = (await onNode('node-2', 'GET', '/api/v2/user', { token: pair.access_token })).status
    }
    times.push(status === 401 ? performance.now() - endedAt : Number.POSITIVE_INFINITY)
  }
  const worst = Math.max(...times)
  const spelt = times.map((ms) => ms.toFixed(1)).join(', ')
  figure('session ended on node-1 → refused on node-2', `${spelt} ms (worst ${worst.toFixed(1)})`)
  check('session ended on node A → refused on node B within 100 ms', worst <= 100, `${spelt} ms`)
}

/** kill -9 node-2 at 35 % of the load, SIGTERM node-3 at 65 %; how long each took to come back. */
async function disrupt(loadAt) {
  const at = (share) => sleep(Math.max(0, loadAt + LOAD_SECONDS * 1000 * share - performance.now()))
  const backInRotation = async (name, since) => {
    const deadline = performance.now() + 120_000
    let wentDown
    while (performance.now() < deadline) {
      const row = (await nodeStats()).find((r) => r.name === name)
      if (!wentDown && row?.status.startsWith('DOWN')) wentDown = seconds(since)
      if (wentDown && row?.status === 'UP') return { down: wentDown, up: seconds(since) }
      await sleep(250)
    }
    return { down: wentDown ?? '?', up: 'never' }
  }

  await at(0.35)
  const second = info.nodes.find((n) => n.name === 'node-2')
  const killedAt = performance.now()
  log(`kill -9 node-2 (pid ${second.pid})`)
  process.kill(second.pid, 'SIGKILL')
  const killed = await backInRotation('node-2', killedAt)

  await at(0.65)
  const third = info.nodes.find((n) => n.name === 'node-3')
  const termAt = performance.now()
  log(`SIGTERM node-3 (pid ${third.pid})`)
  process.kill(third.pid, 'SIGTERM')
  const terminated = await backInRotation('node-3', termAt)
  const exit = clusterEvents.find((e) => e.at > termAt && e.line.startsWith('node-3 exited'))
  const exitCode = /exited \((.*?)\)/.exec(exit?.line ?? '')?.[1]
  check(
    'SIGTERM: node-3 drained and exited by itself (code 0)',
    exitCode === 'code 0',
    exit?.line ?? 'no exit seen',
  )
  return {
    killed: `out of rotation after ${killed.down} s, restarted and back after ${killed.up} s`,
    terminated: `exited ${exitCode} after ${exit ? ((exit.at - termAt) / 1000).toFixed(1) : '?'} s, back after ${terminated.up} s`,
  }
}

/** Replica lag from the primary's view and from node-1's metric, PgBouncer's pools, every 500 ms. */
function sampleWhileLoading() {
  let running = true
  let maxLag = 0
  let maxBytes = 0
  let maxMetric = 0
  let metricSamples = 0
  let maxServers = 0
  let maxWaiting = 0
  const admin = new pg.Client({ connectionString: info.poolerAdminUrl })
  const adminReady = admin.connect()
  const node1 = info.nodes.find((n) => n.name === 'node-1')
  const loop = (async () => {
    await adminReady
    while (running) {
      const { rows } = await primary.query(
        `select coalesce(extract(epoch from replay_lag), 0)::float8 as lag,
                coalesce(pg_wal_lsn_diff(pg_current_wal_lsn(), replay_lsn), 0)::float8 as bytes
         from pg_stat_replication`,
      )
      for (const row of rows) {
        maxLag = Math.max(maxLag, row.lag)
        maxBytes = Math.max(maxBytes, row.bytes)
      }
      try {
        const metrics = await (await fetch(`${node1.url}/metrics`)).text()
        const value = Number(/^db_replica_lag_seconds\{[^}]*\} (\S+)$/m.exec(metrics)?.[1])
        if (Number.isFinite(value)) {
          maxMetric = Math.max(maxMetric, value)
          metricSamples++
        }
      } catch {
        // node-1 busy or restarting: the next sample
      }
      const pools = await admin.query('SHOW POOLS')
      const main = pools.rows.find((row) => row.database === 'finplatform')
      if (main) {
        maxServers = Math.max(
          maxServers,
          Number(main.sv_active) + Number(main.sv_idle) + Number(main.sv_used),
        )
        maxWaiting = Math.max(maxWaiting, Number(main.cl_waiting))
      }
      await sleep(500)
    }
  })()
  let statsLine = ''
  return {
    async stop() {
      running = false
      await loop
      const stats = await admin.query('SHOW STATS')
      const main = stats.rows.find((row) => row.database === 'finplatform')
      const reads = stats.rows.find((row) => row.database === 'finplatform_replica')
      statsLine = `${main?.total_xact_count} transactions on the primary (avg ${(Number(main?.avg_xact_time) / 1000).toFixed(1)} ms), ${reads?.total_xact_count} on the replica`
      await admin.end()
    },
    lag: () =>
      `max ${(maxLag * 1000).toFixed(0)} ms, max ${(maxBytes / 1024).toFixed(0)} KiB behind`,
    metric: () => `max ${maxMetric.toFixed(3)} s over ${metricSamples} scrapes`,
    pooler: () =>
      `${statsLine}; at most ${maxServers} server connections to the primary for 3 nodes × 10 client connections, at most ${maxWaiting} clients waiting`,
  }
}

/** Each node's own /metrics: the replica lag as a number, under the node's name. */
async function lagExported() {
  const found = await Promise.all(
    info.nodes.map(async (node) => {
      const text = await (await fetch(`${node.url}/metrics`)).text()
      const value = new RegExp(
        `^db_replica_lag_seconds\\{node="${node.name}"\\} (\\S+)$`,
        'm',
      ).exec(text)
      return value !== null && Number.isFinite(Number(value[1]))
    }),
  )
  return found.every(Boolean)
}

async function waitForFinal(timeoutMs = 90_000) {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const { rows } = await primary.query(
      `select count(*)::int as open from orders where status <> all($1::text[])`,
      [FINAL],
    )
    if (rows[0].open === 0 || Date.now() > deadline) return rows[0].open
    await sleep(500)
  }
}

async function checkLedger(clients) {
  const none = async (name, query, params = []) => {
    const { rows } = await primary.query(query, params)
    check(name, rows.length === 0, rows.length ? JSON.stringify(rows.slice(0, 3)) : '0 rows')
  }
  await none(
    'every entry balances per currency',
    `select entry_id, currency_uuid, sum(amount_minor) from postings
     group by 1, 2 having sum(amount_minor) <> 0`,
  )
  await none(
    'all postings sum to zero per tenant and currency (money neither made nor lost)',
    `select tenant_id, currency_uuid, sum(balance_minor) from account_balances
     group by 1, 2 having sum(balance_minor) <> 0`,
  )
  await none(
    'no negative balance on any wallet account',
    `select b.account_id, b.balance_minor from account_balances b
     join ledger_accounts a on a.id = b.account_id
     where a.kind in ('user_wallet', 'pending', 'held', 'sub_account') and b.balance_minor < 0`,
  )
  await none(
    'every stored balance equals the sum of its postings',
    // A tenant's own account keeps its balance in several rows (migration 0039): their sum.
    `select coalesce(b.account_id, p.account_id) as account_id
     from (select account_id, currency_uuid, sum(balance_minor) as balance_minor
           from account_balances group by 1, 2) b
     full outer join (select account_id, currency_uuid, sum(amount_minor) as total
                      from postings group by 1, 2) p
       on p.account_id = b.account_id and p.currency_uuid = b.currency_uuid
     where coalesce(b.balance_minor, 0) <> coalesce(p.total, 0)`,
  )
  await none(
    'one order per request_id',
    `select user_id, request_id, count(*) from orders group by 1, 2 having count(*) > 1`,
  )
  // No order executed twice: its steps each once, never both settled and released,
  // a completed one settled (or received), a failed one released.
  await none(
    'no order executed twice, every final order booked as its status says',
    `with steps as (
       select split_part(idempotency_key, ':', 2)::uuid as order_id,
              array_agg(split_part(idempotency_key, ':', 3)) as steps,
              count(*) - count(distinct split_part(idempotency_key, ':', 3)) as repeated
       from journal_entries where idempotency_key like 'order:%' group by 1)
     select o.id, o.order_type, o.status, s.steps from orders o left join steps s on s.order_id = o.id
     where coalesce(s.repeated, 0) > 0
        or ('settle' = any(s.steps) and 'release' = any(s.steps))
        or (o.status = 'COMPLETE' and not coalesce('settle' = any(s.steps) or 'received' = any(s.steps), false))
        or (o.status = 'FAILED' and o.order_type not like 'DEPOSIT%' and not coalesce('release' = any(s.steps), false))`,
  )
  await none(
    'no order job left undone',
    `select id, kind, last_error from jobs where kind = 'orders.process' and done_at is null`,
  )
  const ids = clients.flatMap((client) => [...client.placed.values()])
  const { rows } = await primary.query(
    `select count(*)::int as found from orders where id = any($1::uuid[])`,
    [ids],
  )
  check(
    'every order a client was answered 201 for exists, once',
    rows[0].found === ids.length && new Set(ids).size === ids.length,
    `${rows[0].found} of ${ids.length}`,
  )
  const statuses = await primary.query(
    `select status, count(*)::int as n from orders group by 1 order by 2 desc`,
  )
  figure('orders by status', statuses.rows.map((row) => `${row.status} ${row.n}`).join(', '))
}

async function checkReplica(clients) {
  const { rows } = await primary.query('select pg_current_wal_lsn()::text as lsn')
  const target = rows[0].lsn
  const catchUpAt = performance.now()
  for (;;) {
    const { rows: replayed } = await replica.query(
      'select pg_last_wal_replay_lsn() >= $1::pg_lsn as caught_up',
      [target],
    )
    if (replayed[0].caught_up) break
    if (performance.now() - catchUpAt > 60_000)
      throw new Error('the replica did not catch up in 60 s')
    await sleep(100)
  }
  figure('replica caught up', `${seconds(catchUpAt)} s after the last write`)

  let pages = 0
  let records = 0
  const mismatched = []
  for (const client of clients) {
    // The history as HAProxy's nodes serve it (lag-tolerant: from the replica)…
    const served = []
    for (let offset = 0; ; offset += 100) {
      const page = await ok(
        'GET',
        `/api/v2/wallets/${client.wallet}/transactions?limit=100&offset=${offset}`,
        { token: client.token },
      )
      pages++
      served.push(...page.data.map((row) => `${row.uuid}:${row.status}`))
      if (page.is_last_page) break
    }
    // …and as the primary holds it, in the same order.
    const truth = await primary.query(
      `select id, status from wallet_transactions where wallet_id = $1
       order by created_at desc, id desc`,
      [client.wallet],
    )
    records += truth.rows.length
    const expected = truth.rows.map((row) => `${row.id}:${row.status}`)
    if (JSON.stringify(served) !== JSON.stringify(expected))
      mismatched.push(`history of client ${client.index}`)

    const feed = []
    let cursor = ''
    for (;;) {
      const page = await ok('GET', `/api/v2/activity?limit=100${cursor}`, { token: client.token })
      pages++
      feed.push(...page.data.map((item) => item.id))
      if (!page.next_cursor) break
      cursor = `&cursor=${encodeURIComponent(page.next_cursor)}`
    }
    const items = await primary.query(
      `select id from activities where user_id = (select user_id from wallets where id = $1)
       order by created_at desc, id desc`,
      [client.wallet],
    )
    if (JSON.stringify(feed) !== JSON.stringify(items.rows.map((row) => row.id))) {
      mismatched.push(`activity of client ${client.index}`)
    }
  }
  check(
    'history and activity pages served from the replica match the primary',
    mismatched.length === 0,
    `${pages} pages, ${records} records${mismatched.length ? `; differ: ${mismatched.slice(0, 5).join(', ')}` : ''}`,
  )
}

// ---------------------------------------------------------------- HAProxy's runtime API
function haproxy(command) {
  return new Promise((resolve, reject) => {
    const chunks = []
    const socket = connect(info.haproxySocket, () => socket.end(`${command}\n`))
    socket.on('data', (chunk) => chunks.push(chunk))
    socket.on('end', () => resolve(Buffer.concat(chunks).toString()))
    socket.on('error', reject)
  })
}

async function nodeStats() {
  const [header, ...lines] = (await haproxy('show stat')).replace(/^# /, '').trim().split('\n')
  const columns = header.split(',')
  return lines
    .map((line) => Object.fromEntries(line.split(',').map((cell, i) => [columns[i], cell])))
    .filter((row) => row.pxname === 'nodes' && row.svname !== 'BACKEND')
    .map((row) => ({
      name: row.svname,
      status: row.status,
      requests: Number(row.stot),
      downs: Number(row.chkdown),
    }))
}

function printFigures() {
  const width = Math.max(...figures.map(([name]) => name.length))
  console.log('\nCluster test figures (3 nodes, HAProxy, PgBouncer, primary + streaming replica)')
  for (const [name, value] of figures) console.log(`  ${name.padEnd(width)}  ${value}`)
  console.log(`  ${'total time'.padEnd(width)}  ${elapsed()} s`)
  console.log(
    failures.length === 0
      ? '\nCluster test: every check passed'
      : `\nCluster test: ${failures.length} check(s) failed: ${failures.join('; ')}`,
  )
}

// ---------------------------------------------------------------- main
try {
  await run()
} catch (error) {
  failures.push(`the run itself: ${error.stack ?? error}`)
  log(`FAIL ${error.stack ?? error}`)
} finally {
  await primary.end()
  await replica.end()
  log('stopping the cluster (SIGINT, as Ctrl-C)')
  const stopAt = performance.now()
  cluster.kill('SIGINT')
  const code = await Promise.race([clusterExit, sleep(90_000).then(() => 'timeout')])
  check('Ctrl-C stops the cluster cleanly', code === 0, `exit ${code} in ${seconds(stopAt)} s`)
  if (code === 'timeout') cluster.kill('SIGKILL')
  printFigures()
  process.exit(failures.length > 0 ? 1 : 0)
}
