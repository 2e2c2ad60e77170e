/**
 * Histories at scale: a wallet's first page and a deep page (offset half way)
 * at 10^3, 10^4 and 10^5 records, and the CSV export of the largest, on each
 * engine. The records are written straight into the database while the
 * server is stopped (one INSERT … SELECT each, no ANALYZE by hand), then the
 * server starts on it: keeping the planner's statistics is its own job
 * (infra/statistics.ts), which the warm-up gives the time to run.
 */
import { DEMO_TENANT_ID } from '../contract/tenancy.ts'
import { insertGeneratedTransactions } from '../server/domain/transactions/transaction-fixtures.ts'
import { openDatabase } from '../server/infra/db/database.ts'
import {
  type Cluster,
  createWallet,
  dataDir,
  goalRow,
  percentile,
  ROUNDS,
  type Row,
  signUp,
  startServer,
  TENANT,
  valueRow,
} from './lib.ts'

const LARGEST = Number(process.env.BENCH_HISTORY_MAX ?? 100_000)
const SIZES = [LARGEST / 100, LARGEST / 10, LARGEST]
const PAGE = 20
/** Requests per latency sample; their median is the sample. */
const REQUESTS = 15

/** The median time of `REQUESTS` calls of `url` one after another, in ms. */
async function latency(url: string, headers: Record<string, string>): Promise<number> {
  const times: number[] = []
  for (let i = 0; i < REQUESTS; i++) {
    const started = performance.now()
    const response = await fetch(url, { headers })
    if (!response.ok) throw new Error(`${url} answered ${response.status}`)
    await response.arrayBuffer()
    times.push(performance.now() - started)
  }
  return percentile(times, 50)
}

/** Downloads the whole CSV, counting records (CRLF) without keeping the body; rows per second. */
async function exportCsv(url: string, headers: Record<string, string>, expected: number) {
  const started = performance.now()
  const response = await fetch(url, { headers })
  if (!response.ok || !response.body) throw new Error(`CSV export: ${response.status}`)
  let records = 0
  let previousCr = false
  const reader = response.body.getReader()
  for (let next = await reader.read(); !next.done; next = await reader.read()) {
    const chunk = next.value
    for (let i = 0; i < chunk.length; i++) {
      if (chunk[i] === 10 && (i > 0 ? chunk[i - 1] === 13 : previousCr)) records++
    }
    previousCr = chunk[chunk.length - 1] === 13
  }
  const seconds = (performance.now() - started) / 1000
  if (records - 1 !== expected)
    throw new Error(`CSV export: ${records - 1} rows, ${expected} expected`)
  return expected / seconds
}

async function measureEngine(engine: 'PGlite' | 'PostgreSQL', databaseUrl: string | undefined) {
  const dir = dataDir('history')
  const first = await startServer({ dataDir: dir, databaseUrl })
  const token = await signUp(first.url)
  const wallets: string[] = []
  for (const _ of SIZES) wallets.push(await createWallet(first.url, token))
  await first.stop()

  // The server is stopped: the embedded database is free for this process.
  const database = await openDatabase({ databaseUrl, dataDir: dir })
  try {
    for (const [i, size] of SIZES.entries()) {
      await insertGeneratedTransactions(
        database.db,
        { tenantId: DEMO_TENANT_ID, walletId: wallets[i]! },
        size,
        { analyze: false },
      )
    }
  } finally {
    await database.close()
  }

  const server = await startServer({ dataDir: dir, databaseUrl })
  try {
    const v2 = { ...TENANT, authorization: `Bearer ${token}` }
    const page = (i: number, offset: number) =>
      `${server.url}/api/v2/wallets/${wallets[i]}/transactions?limit=${PAGE}&offset=${offset}`
    // Warm-up: the statistics job's first round runs as the server starts.
    const until = performance.now() + 4_000
    while (performance.now() < until) {
      for (const [i] of SIZES.entries()) await latency(page(i, 0), v2)
    }

    const firstPages = SIZES.map(() => [] as number[])
    const deepPages = SIZES.map(() => [] as number[])
    const csv: number[] = []
    for (let round = 0; round < ROUNDS; round++) {
      for (const [i, size] of SIZES.entries()) {
        firstPages[i]!.push(await latency(page(i, 0), v2))
        deepPages[i]!.push(await latency(page(i, size / 2), v2))
      }
      csv.push(
        await exportCsv(
          `${server.url}/api/v1/wallets/transactions/${wallets.at(-1)}/csv`,
          { ...TENANT, authorization: token },
          LARGEST,
        ),
      )
    }

    const count = (size: number) => size.toLocaleString('en')
    const rows: Row[] = []
    for (const [i, size] of SIZES.entries()) {
      rows.push(
        valueRow(`history first page, ${count(size)} records (${engine})`, firstPages[i]!, 'ms', {
          digits: 1,
          goal: 'scale',
        }),
      )
    }
    for (const [i, size] of SIZES.entries()) {
      rows.push(
        valueRow(
          `history page at offset ${count(size / 2)}, ${count(size)} records (${engine})`,
          deepPages[i]!,
          'ms',
          { digits: 1, goal: 'scale' },
        ),
      )
    }
    rows.push(
      goalRow(
        `ratio first page ${count(LARGEST)} ÷ ${count(SIZES[0]!)} records (${engine})`,
        firstPages[2]!.map((value, round) => value / firstPages[0]![round]!),
        { at: 'most', bound: 2 },
      ),
      goalRow(`CSV export of ${count(LARGEST)} records, streamed (${engine})`, csv, {
        at: 'least',
        bound: LARGEST / 10,
        unit: 'rows/s',
        digits: 0,
      }),
    )
    return rows
  } finally {
    await server.stop()
  }
}

export async function measureHistory(postgres: Cluster | undefined): Promise<Row[]> {
  const rows = await measureEngine('PGlite', undefined)
  if (postgres)
    rows.push(...(await measureEngine('PostgreSQL', await postgres.database('history'))))
  return rows
}
