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
  target: '≤ 150 KB',
})

// 2. Throughput of an authenticated call against a bare Fastify route, same run.
const child = spawn(process.execPath, ['--import', 'tsx', 'bench/servers.ts'], {
  stdio: ['ignore', 'pipe', 'inherit'],
})
const ready = await new Promise<{ appUrl: string; bareUrl: string; accessToken: string }>(
  (resolve, reject) => {
    createInterface({ input: child.stdout }).once('line', (line) => resolve(JSON.parse(line)))
    child.once('exit', (code) => reject(new Error(`bench servers exited with ${code}`)))
  },
)

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
} finally {
  child.kill('SIGTERM')
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
