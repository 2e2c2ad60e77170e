/**
 * `npm run bench`: the performance figures of the product, as one table.
 * Targets live here, never in timed unit tests.
 */
import { spawn } from 'node:child_process'
import { createInterface } from 'node:readline'
import autocannon from 'autocannon'
import { DEMO_TENANT_ID } from '../contract/tenancy.ts'
import { ensureBuilt } from '../scripts/build-state.mjs'
import { initialJs } from '../tests/support/initial-js.ts'
import { cardRevealRows, longTaskLines, measureCardReveal } from './card-reveal.ts'
import { measureCluster } from './cluster.ts'
import { firstLoadRows, measureFirstLoad } from './first-load.ts'
import { measureOrders } from './orders.ts'

const DURATION_S = Number(process.env.BENCH_DURATION ?? 5)
const CONNECTIONS = 10
const KB = 1024

interface Row {
  measure: string
  value: string
  target: string
}
const rows: Row[] = []

// 1. What the first screen costs to download.
await ensureBuilt()
const js = initialJs('dist')
rows.push({
  measure: 'initial JS (gzip)',
  value: `${(js.totalGzip / KB).toFixed(1)} KB in ${js.files.length} files`,
  target: `≤ 100 KB${js.totalGzip <= 100 * KB ? '' : ' — NOT MET'}`,
})

// 2. Throughput of an authenticated call against a bare Fastify route, same run.
const child = spawn(process.execPath, ['--import', 'tsx', 'bench/servers.ts'], {
  stdio: ['ignore', 'pipe', 'inherit'],
})
interface Ready {
  appUrl: string
  bareUrl: string
  accessToken: string
  /** A wallet of the signed-in user holding `csvRows` transactions. */
  walletUuid: string
  csvRows: number
  /** The user's activity feed: how many items, and a cursor nine tenths of the way down. */
  activityItems: number
  deepCursor: string | null
}
const ready = await new Promise<Ready>((resolve, reject) => {
  createInterface({ input: child.stdout }).once('line', (line) => resolve(JSON.parse(line)))
  child.once('exit', (code) => reject(new Error(`bench servers exited with ${code}`)))
})

async function load(url: string, headers: Record<string, string> = {}) {
  const result = await autocannon({ url, connections: CONNECTIONS, duration: DURATION_S, headers })
  if (result.non2xx > 0 || result.errors > 0) {
    throw new Error(`${url}: ${result.non2xx} non-2xx answers, ${result.errors} errors`)
  }
  return { rps: result.requests.average, p99: result.latency.p99 }
}

try {
  const bare = await load(`${ready.bareUrl}/bare`)
  const user = await load(`${ready.appUrl}/api/v2/user`, {
    authorization: `Bearer ${ready.accessToken}`,
    'x-tenant-id': DEMO_TENANT_ID,
    'x-app-env': 'web',
  })
  rows.push(
    {
      measure: 'bare Fastify route',
      value: `${Math.round(bare.rps)} req/s (p99 ${bare.p99} ms)`,
      target: 'yardstick',
    },
    {
      measure: 'GET /api/v2/user (authenticated, PGlite)',
      value: `${Math.round(user.rps)} req/s (p99 ${user.p99} ms)`,
      target: '—',
    },
    {
      measure: 'ratio user / bare',
      value: `${((user.rps / bare.rps) * 100).toFixed(1)} %`,
      target: 'watch for regressions',
    },
  )

  // 3. The activity feed's pages over a long feed: the first one (what every home screen
  // reads), one of a wallet, and one deep down by cursor — each should cost about the same
  // as GET /user, whatever the feed's length (keyset, no count).
  if (ready.activityItems > 0 && ready.deepCursor) {
    const auth = {
      authorization: `Bearer ${ready.accessToken}`,
      'x-tenant-id': DEMO_TENANT_ID,
      'x-app-env': 'web',
    }
    const feed = `${ready.appUrl}/api/v2/activity?limit=20`
    const pages = [
      ['first page', feed],
      ['a wallet’s first page', `${feed}&wallet_uuid=${ready.walletUuid}`],
      ['a page 90 % down', `${feed}&cursor=${ready.deepCursor}`],
    ] as const
    const items = ready.activityItems.toLocaleString('en')
    for (const [name, url] of pages) {
      const page = await load(url, auth)
      rows.push({
        measure: `GET /api/v2/activity, ${name} of 20 (${items} items)`,
        value: `${Math.round(page.rps)} req/s (p99 ${page.p99} ms), ${((page.rps / user.rps) * 100).toFixed(0)} % of /user`,
        target: '≥ 25 % of /user',
      })
    }
  }

  // 4. The v1 CSV export of a large history, read as fast as the client can.
  if (ready.csvRows > 0) {
    const csv = await exportCsv(ready)
    rows.push({
      measure: `CSV export, ${ready.csvRows.toLocaleString('en')} rows (v1, streamed)`,
      value: `${csv.seconds.toFixed(2)} s, ${Math.round(csv.rows / csv.seconds)} rows/s, ${(csv.bytes / 1e6).toFixed(1)} MB (first byte ${csv.firstByteMs} ms)`,
      target: '≤ 10 s',
    })
  }
} finally {
  child.kill('SIGTERM')
}

// 5. Orders per second against PostgreSQL's own pgbench, and on PGlite (BENCH_ORDERS=0 skips).
if (process.env.BENCH_ORDERS !== '0') rows.push(...(await measureOrders(DURATION_S)))

// 5b. Orders/s through HAProxy with 1 and 3 API nodes on one cluster (BENCH_CLUSTER=0 skips;
// a row says so when Debian's postgresql-15, pgbouncer or haproxy is missing).
if (process.env.BENCH_CLUSTER !== '0') rows.push(...(await measureCluster(DURATION_S)))

// 6. The first screen in Chromium on a 3G link with the CPU slowed 4×: a cold visit, a warm
// and an offline start, and the service-worker proxy's cost (BENCH_FIRST_LOAD=0 skips).
if (process.env.BENCH_FIRST_LOAD !== '0') {
  for (const row of firstLoadRows(await measureFirstLoad())) {
    rows.push({
      measure: row.measure,
      value: `${row.value} (${row.spread})`,
      target: row.met ? `${row.goal}${row.met === 'yes' ? '' : ' — NOT MET'}` : row.goal,
    })
  }
}

// 7. Card reveal round trip in Chromium, and the main thread's long tasks meanwhile (BENCH_REVEAL=0 skips).
const notes: string[] = []
if (process.env.BENCH_REVEAL !== '0') {
  const reveal = await measureCardReveal()
  rows.push(...cardRevealRows(reveal))
  notes.push(...longTaskLines(reveal))
}

/** Downloads the whole CSV, counting records (CRLF) without keeping the body. */
async function exportCsv(server: Ready) {
  const started = performance.now()
  const response = await fetch(
    `${server.appUrl}/api/v1/wallets/transactions/${server.walletUuid}/csv`,
    {
      // v1 takes the raw token.
      headers: {
        authorization: server.accessToken,
        'x-tenant-id': DEMO_TENANT_ID,
        'x-app-env': 'web',
      },
    },
  )
  if (!response.ok || !response.body) throw new Error(`CSV export: ${response.status}`)
  let firstByteMs = 0
  let bytes = 0
  let records = 0
  let previousCr = false
  const reader = response.body.getReader()
  for (let next = await reader.read(); !next.done; next = await reader.read()) {
    const chunk = next.value
    if (bytes === 0) firstByteMs = Math.round(performance.now() - started)
    bytes += chunk.length
    for (let i = 0; i < chunk.length; i++) {
      if (chunk[i] === 10 && (i > 0 ? chunk[i - 1] === 13 : previousCr)) records++
    }
    previousCr = chunk[chunk.length - 1] === 13
  }
  const seconds = (performance.now() - started) / 1000
  const exported = records - 1
  if (exported !== server.csvRows) {
    throw new Error(`CSV export: ${exported} rows, ${server.csvRows} expected`)
  }
  return { seconds, rows: exported, bytes, firstByteMs }
}

const widths = (['measure', 'value', 'target'] as const).map((key) =>
  Math.max(key.length, ...rows.map((row) => row[key].length)),
)
const line = (cells: string[]) =>
  `| ${cells.map((cell, i) => cell.padEnd(widths[i]!)).join(' | ')} |`
console.log(
  [
    line(['measure', 'value', 'target']),
    line(widths.map((w) => '-'.repeat(w))),
    ...rows.map((row) => line([row.measure, row.value, row.target])),
  ].join('\n'),
)
console.log(`\n${CONNECTIONS} connections, ${DURATION_S} s per load, ${new Date().toISOString()}`)
if (notes.length > 0) console.log(notes.join('\n'))
