/**
 * `npm run bench`: the performance figures of the product, as one table.
 * Targets live here, never in timed unit tests.
 *
 * The server is measured as `npm start` runs it (the built bundle, embedded
 * PGlite on disk, the default log level) and on PostgreSQL; every baseline
 * (a bare Fastify route, pgbench, the server before issue 15) runs in a
 * process of its own; subjects and baselines are loaded in turn, round after
 * round, after a warm-up; each row is the median of ROUNDS rounds with their
 * spread, and a goal row says its goal and whether it is met.
 *
 * Sections (each can be skipped): BENCH_READS, BENCH_HISTORY, BENCH_ACTIVITY,
 * BENCH_ORDERS, BENCH_EMBEDDED, BENCH_CLUSTER, BENCH_START, BENCH_FIRST_LOAD, BENCH_REVEAL (=0
 * skips). BENCH_DURATION sets the seconds per load sample (3),
 * BENCH_HISTORY_MAX the largest history (100 000), BENCH_ACTIVITY_ITEMS the
 * activity feed's length (100 000).
 */
import { ensureServerBuilt } from '../scripts/build-server.mjs'
import { ensureBuilt } from '../scripts/build-state.mjs'
import { initialJs } from '../tests/support/initial-js.ts'
import { measureActivity } from './activity.ts'
import { cardRevealRows, longTaskLines, measureCardReveal } from './card-reveal.ts'
import { measureCluster } from './cluster.ts'
import { measureEmbedded } from './embedded.ts'
import { firstLoadRows, measureFirstLoad } from './first-load.ts'
import { measureHistory } from './history.ts'
import {
  type Cluster,
  CONNECTIONS,
  DURATION_S,
  printTable,
  ROUNDS,
  type Row,
  startPostgres,
} from './lib.ts'
import { measureOrders } from './orders.ts'
import { measureReads } from './reads.ts'
import { measureStartUp } from './start-up.ts'

const KB = 1024
const on = (name: string) => process.env[name] !== '0'
const started = performance.now()
const rows: Row[] = []
const notes: string[] = []

/** Legacy rows (the Chromium sections) in the table's shape. */
const legacy = (row: { measure: string; value: string; target: string }): Row => ({
  measure: row.measure,
  value: row.value,
  spread: '',
  goal: row.target,
  met: '',
})

// 1. What the first screen costs to download; the server as npm start builds it.
await Promise.all([ensureBuilt(), ensureServerBuilt()])
const js = initialJs('dist')
rows.push({
  measure: 'initial JS (gzip)',
  value: `${(js.totalGzip / KB).toFixed(1)} KB in ${js.files.length} files`,
  spread: '',
  goal: '≤ 100 KB',
  met: js.totalGzip <= 100 * KB ? 'yes' : 'NO',
})

// 2–4. The server: reads, histories, the activity feed, orders (a throwaway PostgreSQL beside it).
let postgres: Cluster | undefined
if (['BENCH_READS', 'BENCH_HISTORY', 'BENCH_ORDERS'].some(on)) {
  postgres = await startPostgres()
  if (!postgres) notes.push('No PostgreSQL in /usr/lib/postgresql/*/bin: its rows are skipped.')
}
/** Runs a section; one that fails says so in the table and the others still run. */
async function section(name: string, measure: () => Promise<Row[]>) {
  if (!on(name)) return
  try {
    rows.push(...(await measure()))
  } catch (error) {
    rows.push({
      measure: `${name} failed`,
      value: String(error).split('\n')[0]!,
      spread: '',
      goal: '',
      met: 'NO',
    })
    notes.push(`${name}: ${(error as Error).stack ?? error}`)
  }
}

try {
  await section('BENCH_READS', () => measureReads(postgres))
  await section('BENCH_HISTORY', () => measureHistory(postgres))
  await section('BENCH_ACTIVITY', measureActivity)
  await section('BENCH_ORDERS', () => measureOrders(postgres))
} finally {
  await postgres?.stop()
}

// 4a. What one statement costs the embedded database, and what its durability,
// file system and batching change (issue 29).
await section('BENCH_EMBEDDED', measureEmbedded)

// 4b. Orders through HAProxy with 1 and 3 API nodes on the scale-out topology (issue 19;
// its own PostgreSQL, replica and PgBouncer; a row says so when Debian's packages are missing).
await section('BENCH_CLUSTER', measureCluster)

// 5. Start-up against the server before issue 15.
await section('BENCH_START', measureStartUp)

// 6. The first screen in Chromium on a 3G link with the CPU slowed 4×: a cold visit, a warm
// and an offline start, and the service-worker proxy's cost (issue 16).
await section('BENCH_FIRST_LOAD', async () => firstLoadRows(await measureFirstLoad()))

// 7. Card reveal round trip in Chromium, and the main thread's long tasks meanwhile.
await section('BENCH_REVEAL', async () => {
  const reveal = await measureCardReveal()
  notes.push(...longTaskLines(reveal))
  return cardRevealRows(reveal).map(legacy)
})

console.log(printTable(rows))
console.log(
  `\n${ROUNDS} rounds, ${DURATION_S} s per load sample, ${CONNECTIONS} connections; ` +
    `value = median, spread = min–max of the rounds; ${Math.round((performance.now() - started) / 1000)} s in all; ` +
    new Date().toISOString(),
)
if (notes.length > 0) console.log(notes.join('\n'))
