/**
 * The first screen, as a person on a phone meets it: headless Chromium with
 * the CPU slowed 4× and DevTools' slow-4G link (150 ms and 1.6 Mbit/s, applied
 * as 562.5 ms and 180 KB/s; CDP throttling of the page), the real server
 * (embedded PGlite, fresh data directory) and the built app. A user with one wallet holding 0.5 ETH (a
 * sandbox deposit, watched until complete), signed in on every visit.
 *
 * - cold: a first visit — no worker, nothing cached, the tokens in IndexedDB
 *   (a context made from a storage state holding only them);
 * - warm: a new tab once the worker controls the origin and the query cache
 *   on disk holds the balance, online (the worker's own requests throttled
 *   like the page's: the page's throttling does not reach it);
 * - offline: the same, with the network off (page and worker).
 * RUNS rounds of cold, warm and offline, interleaved. The time is the page's
 * own clock (performance.now(), from the navigation's start) when a
 * MutationObserver first sees the balance text in the DOM; the requests come
 * from Resource Timing on the same clock, their bytes on the wire (headers
 * included) from the network stack through CDP (tests/support/first-load.ts).
 *
 * The service-worker proxy's cost: the same API call timed from the page
 * with the worker in front and with the page-side proxy (a context that
 * blocks workers), unthrottled, batch after batch interleaved.
 */
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { signUpThroughApi, waitForServiceWorkerControl } from '../tests/support/e2e-app.ts'
import { launchBrowser, startServer } from '../tests/support/e2e-server.ts'
import {
  bytesBeforeBalances,
  bytesOnWire,
  type FirstLoad,
  observeBalance,
  readFirstLoad,
  recordWire,
  roundTripsInARow,
  waitForQuiet,
} from '../tests/support/first-load.ts'
import {
  BALANCE_TEXT,
  fundWallet,
  type SignedIn,
  storageWithTokens,
  waitForPersistedBalance,
} from '../tests/support/funded-session.ts'
import {
  CPU_SLOWDOWN,
  SLOW_LINK,
  throttle,
  throttleServiceWorker,
  wakeServiceWorker,
} from '../tests/support/throttling.ts'

/**
 * Rounds of cold, warm and offline. Five (the floor) left the offline
 * ratio's median 0.93–1.13 across runs of one tree on this shared two-core
 * machine, where one start ranges over ±20 %; nine hold it to a few per cent.
 */
export const RUNS = 9
/**
 * Calls per batch and batches per side for the proxy's latency: a batch's p50
 * differs from the next by up to 2 ms, about the quantity measured.
 */
const PROXY_CALLS = 40
const PROXY_BATCHES = 15
const TIMEOUT_MS = 60_000
const KB = 1024

/** One row of the bench table: the median, the spread of the runs, the goal and whether it is met. */
export interface FirstLoadRow {
  measure: string
  value: string
  spread: string
  goal: string
  met: string
}

export interface FirstLoadResult {
  cold: Sample[]
  warm: Sample[]
  offline: Sample[]
  /** Per batch: p50 of the calls through the worker, and through the page-side proxy. */
  proxy: { worker: number; page: number }[]
}

interface Sample {
  ms: number
  roundTrips: number
  /** Bytes on the wire, headers included, of every request until the visit settled (cold only). */
  bytes: number
  /** The same, of the requests sent before the balances showed (cold only). */
  bytesBefore: number
}

export async function measureFirstLoad(): Promise<FirstLoadResult> {
  const [browser, server] = await Promise.all([
    launchBrowser(),
    startServer({ SANDBOX_BLOCK_MS: '50', LOG_LEVEL: 'error' }),
  ])
  try {
    // Funded before the app first asks for the wallets, so its first answer has the balance.
    const tokens = await signUpThroughApi(server.url, `bench-first-load-${Date.now()}@example.com`)
    await fundWallet(server.url, tokens.access_token)
    const signedIn = await storageWithTokens(
      (options) => newContext(browser, options),
      server.url,
      tokens,
    )

    // The warm side: the worker installed and the snapshot on disk, as after a first visit.
    const warmContext = await newContext(browser, { storageState: signedIn })
    const first = await warmContext.newPage()
    await first.goto(`${server.url}/`)
    await waitForServiceWorkerControl(first)
    await first.getByTestId('balance').filter({ hasText: BALANCE_TEXT }).first().waitFor()
    await waitForPersistedBalance(first)
    await first.close()
    // A page the worker controls and that runs none of the app: what wakes the worker.
    const keeper = await warmContext.newPage()
    await keeper.goto(`${server.url}/healthz`)

    const cold = (): Promise<Sample> => coldVisit(browser, server.url, signedIn)
    const start = (offline: boolean): Promise<Sample> =>
      startTab({ browser, context: warmContext, keeper }, server.url, offline)

    // One unmeasured round: compiled code, the server's caches, the worker awake.
    await cold()
    await start(false)
    await start(true)
    const result: FirstLoadResult = { cold: [], warm: [], offline: [], proxy: [] }
    for (let run = 0; run < RUNS; run++) {
      result.cold.push(await cold())
      result.warm.push(await start(false))
      result.offline.push(await start(true))
    }

    result.proxy = await proxyLatency(browser, warmContext, server.url, signedIn)
    await warmContext.close()
    return result
  } finally {
    await Promise.all([browser.close(), server.stop()])
  }
}

async function newContext(
  browser: Browser,
  options: Parameters<Browser['newContext']>[0] = {},
): Promise<BrowserContext> {
  const context = await browser.newContext({ locale: 'en-US', ...options })
  context.setDefaultTimeout(TIMEOUT_MS)
  return context
}

/** A first visit: a fresh context (empty caches, no worker, no connection), signed in. */
async function coldVisit(browser: Browser, baseUrl: string, signedIn: SignedIn): Promise<Sample> {
  const context = await newContext(browser, { storageState: signedIn })
  try {
    const page = await context.newPage()
    await page.addInitScript(observeBalance(BALANCE_TEXT))
    const wire = recordWire(
      await throttle(context, page, { network: SLOW_LINK, cpu: CPU_SLOWDOWN }),
    )
    await page.goto(`${baseUrl}/`, { waitUntil: 'commit' })
    const load = await readFirstLoad(page, TIMEOUT_MS)
    // Everything the visit downloads, not only what the balances waited for.
    await waitForQuiet(page)
    return sample(load, { all: bytesOnWire(wire()), before: bytesBeforeBalances(wire(), load) })
  } finally {
    await context.close()
  }
}

/**
 * A new tab on the warm context: the worker serves the shell, the disk the
 * answers. Online, the worker's own requests cross the same slow link as the
 * page's; offline, neither reaches the network.
 */
async function startTab(
  warm: { browser: Browser; context: BrowserContext; keeper: Page },
  baseUrl: string,
  offline: boolean,
) {
  const { context } = warm
  await wakeServiceWorker(warm.keeper)
  const lift = offline ? undefined : await throttleServiceWorker(warm.browser, SLOW_LINK)
  const page = await context.newPage()
  await context.setOffline(offline)
  try {
    await page.addInitScript(observeBalance(BALANCE_TEXT))
    await throttle(context, page, {
      network: offline ? 'offline' : SLOW_LINK,
      cpu: CPU_SLOWDOWN,
    })
    await page.goto(`${baseUrl}/`, { waitUntil: 'commit' })
    const load = await readFirstLoad(page, TIMEOUT_MS)
    // Truly from the cache: the app says it is offline.
    if (offline) await page.getByText(/^Offline · updated /).waitFor()
    return sample(load, { all: 0, before: 0 })
  } finally {
    await context.setOffline(false)
    await page.close()
    await lift?.()
  }
}

function sample(load: FirstLoad, bytes: { all: number; before: number }): Sample {
  return {
    ms: load.balanceAt,
    roundTrips: roundTripsInARow(load),
    bytes: bytes.all,
    bytesBefore: bytes.before,
  }
}

/**
 * GET /api/v2/user timed from the page, PROXY_CALLS in a row: through the
 * worker (the warm context) and through the page-side proxy (a context that
 * blocks workers), batch after batch, unthrottled — the proxy's own cost.
 */
async function proxyLatency(
  browser: Browser,
  warmContext: BrowserContext,
  baseUrl: string,
  signedIn: SignedIn,
) {
  const pageContext = await newContext(browser, { storageState: signedIn, serviceWorkers: 'block' })
  try {
    const worker = await warmContext.newPage()
    const pageSide = await pageContext.newPage()
    await Promise.all([worker.goto(`${baseUrl}/profile`), pageSide.goto(`${baseUrl}/profile`)])
    await worker.waitForFunction(() => navigator.serviceWorker.controller !== null)
    const batch = (page: Page) =>
      page.evaluate(async (calls) => {
        const times: number[] = []
        for (let call = 0; call < calls; call++) {
          const started = performance.now()
          const response = await fetch('/api/v2/user')
          await response.arrayBuffer()
          if (!response.ok) throw new Error(`GET /api/v2/user answered ${response.status}`)
          times.push(performance.now() - started)
        }
        return times.sort((a, b) => a - b)[Math.floor(calls / 2)]!
      }, PROXY_CALLS)
    // Warm-up: both proxies have read the vault and opened their connections.
    await batch(worker)
    await batch(pageSide)
    const batches: FirstLoadResult['proxy'] = []
    for (let round = 0; round < PROXY_BATCHES; round++) {
      batches.push({ worker: await batch(worker), page: await batch(pageSide) })
    }
    await worker.close()
    return batches
  } finally {
    await pageContext.close()
  }
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b)
  const middle = Math.floor(sorted.length / 2)
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2
}
const spreadOf = (values: number[], format: (value: number) => string) =>
  `${format(Math.min(...values))}–${format(Math.max(...values))}`
const ms = (value: number) => `${Math.round(value)} ms`
const kb = (value: number) => `${(value / KB).toFixed(1)} KB`
const ratio = (value: number) => value.toFixed(2)
const met = (ok: boolean) => (ok ? 'yes' : 'NO')

/** A time the ratios below are read against: its median and spread. */
const yardstick = (measure: string, samples: Sample[]): FirstLoadRow => {
  const values = samples.map((s) => s.ms)
  return {
    measure,
    value: ms(median(values)),
    spread: spreadOf(values, ms),
    goal: 'yardstick',
    met: '',
  }
}

/** A ratio of two medians, with the spread of the run-by-run ratios, against `most`. */
const ratioRow = (measure: string, value: number, runs: number[], most: number): FirstLoadRow => ({
  measure,
  value: ratio(value),
  spread: spreadOf(runs, ratio),
  goal: `≤ ${most.toFixed(1)}`,
  met: met(value <= most),
})

/** The table's rows, each with its goal. */
export function firstLoadRows(result: FirstLoadResult): FirstLoadRow[] {
  const times = (samples: Sample[]) => samples.map((s) => s.ms)
  const cold = median(times(result.cold))
  const warm = median(times(result.warm))
  const offline = median(times(result.offline))
  const bytes = result.cold.map((s) => s.bytes)
  const bytesBefore = result.cold.map((s) => s.bytesBefore)
  const coldTrips = result.cold.map((s) => s.roundTrips)
  const warmTrips = result.warm.map((s) => s.roundTrips)
  const warmRatios = result.warm.map((s, i) => s.ms / result.cold[i]!.ms)
  const offlineRatios = result.offline.map((s, i) => s.ms / result.warm[i]!.ms)
  const added = result.proxy.map((batch) => batch.worker - batch.page)
  const link = 'slow 4G + CPU 4×'
  const runs = `median of ${result.cold.length}`
  return [
    {
      measure: `cold visit: bytes before balances, headers included (${link}, ${runs})`,
      value: kb(median(bytesBefore)),
      spread: spreadOf(bytesBefore, kb),
      goal: '≤ 150 KB',
      met: met(median(bytesBefore) <= 150 * KB),
    },
    {
      measure: `cold visit, signed in: bytes on the wire, all requests, headers included (${runs})`,
      value: kb(median(bytes)),
      spread: spreadOf(bytes, kb),
      goal: '≤ 160 KB',
      met: met(median(bytes) <= 160 * KB),
    },
    yardstick(`cold visit: balances visible (${link}, ${runs})`, result.cold),
    {
      measure: 'API round trips in a row before balances show: cold · warm',
      value: `${median(coldTrips)} · ${median(warmTrips)}`,
      spread: `${spreadOf(coldTrips, String)} · ${spreadOf(warmTrips, String)}`,
      goal: '≤ 1 (warm: 0, from the cache)',
      met: met(Math.max(...coldTrips, ...warmTrips) <= 1),
    },
    yardstick(`warm start (worker + cache): balances visible (${link}, ${runs})`, result.warm),
    ratioRow('warm start ÷ cold visit', warm / cold, warmRatios, 0.4),
    yardstick(`offline start: balances visible (CPU 4×, ${runs})`, result.offline),
    ratioRow('offline start ÷ online (warm) start', offline / warm, offlineRatios, 1),
    {
      measure: `service-worker proxy: added latency per API call, p50 (median of ${added.length} batches of ${PROXY_CALLS}, unthrottled)`,
      value: `${median(added).toFixed(2)} ms`,
      spread: spreadOf(added, (value) => value.toFixed(2)),
      goal: '≤ 2 ms',
      met: met(median(added) <= 2),
    },
  ]
}
