/**
 * What every section of the bench shares: the processes under measure (the
 * server as `npm start` runs it, a bare Fastify, a throwaway PostgreSQL), the
 * HTTP calls that set them up, and the table's rows — the median of three
 * rounds, their spread, and the goal each row answers to.
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import autocannon from 'autocannon'
import pg from 'pg'
import { DEMO_TENANT_ID } from '../contract/tenancy.ts'
import { SERVER_BUNDLE } from '../scripts/build-server.mjs'
import { freePort } from '../tests/support/e2e-server.ts'
import { findPostgresBin, startCluster } from '../tests/support/postgres-cluster.ts'

export const run = promisify(execFile)

/** Seconds of load per sample (BENCH_DURATION). */
export const DURATION_S = Number(process.env.BENCH_DURATION ?? 3)
/** Rounds of every interleaved measurement: each row is their median and spread. */
export const ROUNDS = 3
/** Concurrent clients of every closed-loop load. */
export const CONNECTIONS = 10

// ---------------------------------------------------------------------------
// Rows

export interface Row {
  measure: string
  /** The median of the rounds. */
  value: string
  /** The rounds' range, min–max. */
  spread: string
  /** The goal this row answers to ('yardstick' for a baseline, 'scale' for a scaling row). */
  goal: string
  /** yes / no against the goal; empty when the row has none. */
  met: string
}

export const median = (values: readonly number[]) => {
  const sorted = [...values].sort((a, b) => a - b)
  const mid = Math.floor(sorted.length / 2)
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2
}

/** Nearest-rank percentile. */
export function percentile(samples: readonly number[], p: number): number {
  const sorted = [...samples].sort((a, b) => a - b)
  return sorted[Math.max(0, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN
}

const fmt = (value: number, digits: number) =>
  value.toLocaleString('en', { minimumFractionDigits: digits, maximumFractionDigits: digits })

/** A row of measured values (one per round), without a goal of its own. */
export function valueRow(
  measure: string,
  values: readonly number[],
  unit: string,
  options: { digits?: number; goal?: string } = {},
): Row {
  const digits = options.digits ?? 0
  return {
    measure,
    value: `${fmt(median(values), digits)} ${unit}`,
    spread: `${fmt(Math.min(...values), digits)}–${fmt(Math.max(...values), digits)}`,
    goal: options.goal ?? '',
    met: '',
  }
}

/** A goal row: the values (one per round) against `≥ bound` or `≤ bound`. */
export function goalRow(
  measure: string,
  values: readonly number[],
  goal: {
    at: 'least' | 'most'
    bound: number
    /** An issue's step towards `bound`: what `met` judges, both printed. */
    step?: number
    unit?: string
    digits?: number
  },
): Row {
  const digits = goal.digits ?? 2
  const unit = goal.unit ? ` ${goal.unit}` : ''
  const value = median(values)
  const judged = goal.step ?? goal.bound
  const met = goal.at === 'least' ? value >= judged : value <= judged
  const sign = goal.at === 'least' ? '≥' : '≤'
  return {
    measure,
    value: `${fmt(value, digits)}${unit}`,
    spread: `${fmt(Math.min(...values), digits)}–${fmt(Math.max(...values), digits)}`,
    goal:
      goal.step === undefined
        ? `${sign} ${goal.bound}${unit}`
        : `step ${sign} ${goal.step}${unit}, goal ${sign} ${goal.bound}${unit}`,
    met: met ? 'yes' : 'NO',
  }
}

/** A row saying why a section measured nothing. */
export const skippedRow = (measure: string, why: string): Row => ({
  measure,
  value: `skipped: ${why}`,
  spread: '',
  goal: '',
  met: '',
})

export function printTable(rows: readonly Row[]): string {
  const columns = ['measure', 'value', 'spread', 'goal', 'met'] as const
  const widths = columns.map((key) => Math.max(key.length, ...rows.map((row) => row[key].length)))
  const line = (cells: readonly string[]) =>
    `| ${cells.map((cell, i) => cell.padEnd(widths[i]!)).join(' | ')} |`
  return [
    line(columns),
    line(widths.map((width) => '-'.repeat(width))),
    ...rows.map((row) => line(columns.map((key) => row[key]))),
  ].join('\n')
}

// ---------------------------------------------------------------------------
// Processes

const running = new Set<ChildProcess>()
// An interrupted bench must not leave servers behind.
process.once('exit', () => {
  for (const child of running) {
    if (!child.pid || child.exitCode !== null || child.signalCode !== null) continue
    try {
      process.kill(-child.pid, 'SIGKILL')
    } catch {
      // Gone meanwhile: nothing left to stop.
    }
  }
})

export interface Server {
  url: string
  /** The server's process group (its process and whatever it started), for its CPU. */
  group: number | undefined
  /** Wall-clock milliseconds from the spawn to the first 200 of GET /healthz. */
  startMs: number
  stop(): Promise<void>
}

/**
 * The server as `npm start` runs it: the built bundle, the default log level
 * (its lines written to /dev/null), embedded PGlite on disk in `dataDir`
 * unless `databaseUrl` names a PostgreSQL. `env` adds what the bench's set-up
 * needs (more sign-ups per minute than one person makes; no simulated network
 * latency in the sandbox rates provider).
 */
export function startServer(options: {
  dataDir: string
  databaseUrl?: string
  env?: Record<string, string>
  /** The command line (run by Node unless `executable` says otherwise), from `cwd`; default: the built bundle. */
  command?: string[]
  executable?: string
  cwd?: string
}): Promise<Server> {
  return freePort().then(async (port) => {
    const env: NodeJS.ProcessEnv = {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: options.dataDir,
      AUTH_RATE_LIMIT_PER_IP: '100000',
      AUTH_RATE_LIMIT_PER_EMAIL: '100000',
      RATES_SANDBOX_LATENCY_MS: '0',
      // On PostgreSQL the sandbox (its deposits fund the orders' wallets) as on PGlite, without the demo.
      ...(options.databaseUrl && {
        DATABASE_URL: options.databaseUrl,
        SANDBOX: 'true',
        DEMO_SEED: 'false',
      }),
      ...options.env,
    }
    const started = performance.now()
    // Its own process group, so a stop reaches whatever it started (npm start's children).
    const child = spawn(
      options.executable ?? process.execPath,
      options.command ?? [SERVER_BUNDLE],
      {
        cwd: options.cwd ?? process.cwd(),
        env,
        stdio: ['ignore', 'ignore', 'pipe'],
        detached: true,
      },
    )
    running.add(child)
    const errors: string[] = []
    child.stderr!.on('data', (chunk: Buffer) => errors.push(chunk.toString()))
    const url = `http://127.0.0.1:${port}`
    const exited = new Promise<never>((_, reject) =>
      child.once('exit', (code, signal) =>
        reject(new Error(`the server exited (${code ?? signal}):\n${errors.join('')}`)),
      ),
    )
    exited.catch(() => {})
    const deadline = Date.now() + 180_000
    for (;;) {
      const ok = await fetch(`${url}/healthz`).then(
        (response) => response.ok,
        () => false,
      )
      if (ok) break
      if (Date.now() > deadline) throw new Error(`no /healthz in 180 s:\n${errors.join('')}`)
      await Promise.race([new Promise((resolve) => setTimeout(resolve, 10)), exited])
    }
    const startMs = performance.now() - started
    return {
      url,
      group: child.pid,
      startMs,
      stop: () =>
        new Promise<void>((resolve) => {
          running.delete(child)
          if (child.exitCode !== null || child.signalCode !== null) return resolve()
          child.once('exit', () => resolve())
          if (child.pid) process.kill(-child.pid, 'SIGTERM')
        }),
    }
  })
}

/** A bare Fastify route in a process of its own: the yardstick of a request's cost. */
export async function startBare(): Promise<Server> {
  return startServer({ dataDir: '', command: ['bench/bare-server.mjs'] })
}

const dataDirs = new Set<string>()
// One listener for them all: a run makes more than Node's ten before it warns.
process.once('exit', () => {
  for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true })
})

/** A data directory for an embedded database, removed at exit. */
export function dataDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), `bench-${prefix}-`))
  dataDirs.add(dir)
  return dir
}

export interface Cluster {
  url: string
  bin: string
  stop(): Promise<void>
  /** A new database of the cluster; its URL. */
  database(name: string): Promise<string>
}

/** A throwaway PostgreSQL cluster, or undefined when this machine has none. */
export async function startPostgres(): Promise<Cluster | undefined> {
  const bin = findPostgresBin()
  if (!bin) return undefined
  const cluster = await startCluster(bin)
  return {
    ...cluster,
    bin,
    async database(name: string) {
      const client = new pg.Client({ connectionString: cluster.url })
      await client.connect()
      try {
        await client.query(`create database ${name}`)
      } finally {
        await client.end()
      }
      const url = new URL(cluster.url)
      url.pathname = `/${name}`
      return url.toString()
    },
  }
}

/** CONNECTIONS clients calling `url` for `seconds`: requests per second; throws on any failure. */
export async function load(url: string, headers: Record<string, string>, seconds: number) {
  const result = await autocannon({ url, connections: CONNECTIONS, duration: seconds, headers })
  if (result.non2xx > 0 || result.errors > 0) {
    throw new Error(`${url}: ${result.non2xx} non-2xx answers, ${result.errors} errors`)
  }
  return result.requests.average
}

// ---------------------------------------------------------------------------
// Set-up through the API

export const TENANT = { 'x-tenant-id': DEMO_TENANT_ID, 'x-app-env': 'web' }

/** Calls the API as a signed-in person (v2 Bearer; v1 raw token); throws on anything but 2xx. */
export async function call<T>(
  base: string,
  token: string | undefined,
  method: string,
  path: string,
  body?: unknown,
): Promise<T> {
  const v2 = path.startsWith('/api/v2/')
  const response = await fetch(`${base}${path}`, {
    method,
    headers: {
      ...TENANT,
      'content-type': 'application/json',
      ...(token && { authorization: v2 ? `Bearer ${token}` : token }),
    },
    ...(body !== undefined && { body: JSON.stringify(body) }),
  })
  if (!response.ok) {
    throw new Error(`${method} ${path} answered ${response.status}: ${await response.text()}`)
  }
  return (await response.json()) as T
}

let people = 0
/** A new person's access token. */
export async function signUp(base: string): Promise<string> {
  const email = `bench-${process.pid}-${Date.now()}-${++people}@example.com`
  const { access_token } = await call<{ access_token: string }>(
    base,
    undefined,
    'POST',
    '/api/v2/auth/sign-up/password/email',
    { email, password: 'correct horse battery staple' },
  )
  return access_token
}

/** A new wallet of the person; its uuid. */
export async function createWallet(base: string, token: string, type = 'personal') {
  return (await call<{ uuid: string }>(base, token, 'POST', '/api/v2/wallets', { type })).uuid
}

/** USDT on Tron and bitcoin (uuids fixed by migration 0004): the pair the orders exchange. */
export const USDT_TRON = 'b3115d89-344b-4d51-abfa-76863eddec04'
export const BTC = '68e31acb-683c-4237-a1d1-50edfa265bdf'

/**
 * Funds the wallet as a person would: a sandbox deposit of `amount` USDT on
 * Tron to a new address of the wallet, waited for until it is available.
 */
export async function fundWithUsdt(base: string, token: string, walletId: string, amount: string) {
  await call(base, token, 'POST', `/api/v2/wallets/${walletId}/addresses/tron`, {})
  await call(base, undefined, 'POST', '/api/sandbox/deposits', {
    wallet_uuid: walletId,
    chain: 'tron',
    currency: USDT_TRON,
    amount,
  })
  const deadline = Date.now() + 60_000
  for (;;) {
    const wallet = await call<{ balances: { currency_uuid: string; available: string }[] }>(
      base,
      token,
      'GET',
      `/api/v2/wallets/${walletId}`,
    )
    const usdt = wallet.balances.find((balance) => balance.currency_uuid === USDT_TRON)
    if (usdt && Number(usdt.available) >= Number(amount)) return
    if (Date.now() > deadline) throw new Error('the sandbox deposit did not complete in 60 s')
    await new Promise((resolve) => setTimeout(resolve, 200))
  }
}
