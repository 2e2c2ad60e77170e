import type { Browser, BrowserContext, CDPSession, Page } from 'playwright-core'
import { type Tokens, writeVault } from './e2e-app.ts'
import { TENANT_HEADERS } from './e2e-server.ts'

/*
 * What a first screen costs, read from the page itself: when the balances
 * showed (a MutationObserver installed before any script), which API calls
 * went out before then and when each was answered (Resource Timing, on the
 * same clock), and the bytes every request took on the wire. Used by the
 * first-load e2e tests and by bench/first-load.ts.
 */

/**
 * The balance of fundWallet's wallet as the home screen formats it in en-US
 * (crypto with its trailing zeros trimmed, src/i18n/money.ts), and not part
 * of a larger number.
 */
export const BALANCE_TEXT = /(?<![\d.,])0\.5\sETH/

/**
 * Chromium DevTools' "Slow 4G" (named "Fast 3G" before): 150 ms and 1.6 Mbit/s down, 750 kbit/s
 * up, which DevTools applies as these (its presets multiply the round trip by 3.75 and the
 * throughput by 0.9). The link of issues 16 and 27.
 */
export const SLOW_LINK = { latency: 562.5, downloadThroughput: 180_000, uploadThroughput: 84_375 }
/** A mid-range phone against this machine. */
export const CPU_SLOWDOWN = 4

export interface Throttling {
  /** Round trip in ms and bytes per second each way; 'offline' fails every request. */
  network?: typeof SLOW_LINK | 'offline'
  cpu?: number
}

/** Throttles `page` through the DevTools protocol (its own requests; a worker's are its own). */
export async function throttle(context: BrowserContext, page: Page, how: Throttling) {
  const cdp: CDPSession = await context.newCDPSession(page)
  await cdp.send('Network.enable')
  if (how.network) {
    const link =
      how.network === 'offline'
        ? { offline: true, latency: 0, downloadThroughput: -1, uploadThroughput: -1 }
        : { offline: false, ...how.network }
    await cdp.send('Network.emulateNetworkConditions', link)
  }
  if (how.cpu) await cdp.send('Emulation.setCPUThrottlingRate', { rate: how.cpu })
  return cdp
}

/**
 * Throttles the network of the running service worker, which the page's
 * throttling does not reach: without it a warm start's API calls, which the
 * worker sends, would cross a link of a few milliseconds. Through the
 * browser's DevTools session (Playwright opens none on workers); the
 * throttling lasts while that session is attached, until the answered
 * function lifts it. The worker must be running (wakeServiceWorker).
 */
export async function throttleServiceWorker(
  browser: Browser,
  link: typeof SLOW_LINK,
): Promise<() => Promise<void>> {
  const cdp = await browser.newBrowserCDPSession()
  const { targetInfos } = (await cdp.send('Target.getTargets')) as {
    targetInfos: Array<{ targetId: string; type: string }>
  }
  const worker = targetInfos.find((target) => target.type === 'service_worker')
  if (!worker) {
    await cdp.detach()
    throw new Error('no service worker is running to throttle')
  }
  const { sessionId } = (await cdp.send('Target.attachToTarget', {
    targetId: worker.targetId,
    flatten: false,
  })) as { sessionId: string }
  // A session that is not flat takes its commands wrapped, and answers them as events.
  const answers = new Map<number, (error?: string) => void>()
  cdp.on('Target.receivedMessageFromTarget', (event) => {
    const message = JSON.parse(event.message) as { id?: number; error?: { message: string } }
    if (message.id !== undefined) answers.get(message.id)?.(message.error?.message)
  })
  let next = 0
  const send = async (method: string, params: object) => {
    const id = ++next
    const answered = new Promise<void>((resolve, reject) =>
      answers.set(id, (error) => (error ? reject(new Error(`${method}: ${error}`)) : resolve())),
    )
    await cdp.send('Target.sendMessageToTarget', {
      sessionId,
      message: JSON.stringify({ id, method, params }),
    })
    await answered
  }
  await send('Network.enable', {})
  await send('Network.emulateNetworkConditions', { offline: false, ...link })
  return () => cdp.detach()
}

/**
 * Starts the origin's service worker, which the browser stops when idle, by
 * reloading `page` (a page it controls): a navigation in its scope is a fetch
 * event, which the browser starts the worker to dispatch. Not a fetch from the
 * page: the keeper is /healthz, and an API answer's CSP allows its page none.
 */
export async function wakeServiceWorker(page: Page) {
  await page.reload()
  if (!(await page.evaluate(() => navigator.serviceWorker.controller !== null))) {
    throw new Error('no service worker controls the page')
  }
}

/**
 * Runs in the page before its scripts: notes performance.now() (ms since the
 * navigation started) the first time an element `[data-testid="balance"]`
 * holds text matching `pattern`. A string, not a function: tsx would wrap a
 * function's inner names in helpers the page does not have.
 */
export const observeBalance = (pattern: RegExp) => `{
  const pattern = new RegExp(${JSON.stringify(pattern.source)})
  const observer = new MutationObserver(() => {
    for (const element of document.querySelectorAll('[data-testid="balance"]')) {
      if (!pattern.test(element.textContent || '')) continue
      window.__balanceAt = performance.now()
      observer.disconnect()
      return
    }
  })
  observer.observe(document, { childList: true, subtree: true, characterData: true })
}`

/** One request of the page, on the page's clock (ms since the navigation started). */
export interface Request {
  url: string
  /** When the page asked (fetch() called, or the element needed it). */
  startTime: number
  /** When the first byte of the answer came; 0 for a request that failed. */
  responseStart: number
  /** When the answer was complete. */
  responseEnd: number
  /** Bytes on the wire, headers included; 0 from a cache or the service worker's precache. */
  transferSize: number
}

export interface FirstLoad {
  /** When the balances were first in the DOM. */
  balanceAt: number
  /** The page clock's zero, in ms since the epoch (`performance.timeOrigin`). */
  timeOrigin: number
  /** The navigation itself, then every resource, in order of start. */
  requests: Request[]
}

/** Waits for the balances (observeBalance must be installed), then reads the timeline. */
export async function readFirstLoad(page: Page, timeout = 30_000): Promise<FirstLoad> {
  const handle = await page.waitForFunction(
    () => (window as unknown as { __balanceAt?: number }).__balanceAt,
    undefined,
    { timeout },
  )
  const balanceAt = (await handle.jsonValue()) as number
  const timeOrigin = (await page.evaluate('performance.timeOrigin')) as number
  return { balanceAt, timeOrigin, requests: await readRequests(page) }
}

/** A string, not a function: tsx would name the inner arrow with a helper the page does not have. */
const READ_REQUESTS = `[
  ...performance.getEntriesByType('navigation'),
  ...performance.getEntriesByType('resource'),
].map((entry) => ({
  url: entry.name,
  startTime: entry.startTime,
  responseStart: entry.responseStart,
  responseEnd: entry.responseEnd,
  transferSize: entry.transferSize,
})).sort((a, b) => a.startTime - b.startTime)`

export function readRequests(page: Page): Promise<Request[]> {
  return page.evaluate(READ_REQUESTS) as Promise<Request[]>
}

/**
 * Reads the timeline once a request to each of `paths` is on it. A resource
 * joins the timeline only when its answer is complete, so a call asked before
 * the balances showed but answered after is missing from an earlier read.
 */
export async function readRequestsOnceAnswered(
  page: Page,
  paths: string[],
  timeout = 30_000,
): Promise<Request[]> {
  const allThere = page.waitForFunction(
    (wanted) => {
      const seen = new Set(
        performance.getEntriesByType('resource').map((entry) => new URL(entry.name).pathname),
      )
      return wanted.every((path) => seen.has(path))
    },
    paths,
    { timeout },
  )
  // Past the timeout, the caller's assertion names what is missing.
  await allThere.catch(() => undefined)
  return readRequests(page)
}

export const isApi = (request: Request) => new URL(request.url).pathname.startsWith('/api/')

/**
 * How many API round trips in a row the balances waited for: the longest
 * chain of calls each asked only after an earlier one was answered, among
 * the calls answered before the balances showed. 0 when none was.
 */
export function roundTripsInARow(load: FirstLoad): number {
  const calls = load.requests.filter(
    (request) => isApi(request) && request.responseEnd > 0 && request.responseEnd <= load.balanceAt,
  )
  const depth = new Map<Request, number>()
  for (const call of calls) {
    const before = calls.filter((earlier) => earlier.responseEnd <= call.startTime)
    depth.set(call, 1 + Math.max(0, ...before.map((earlier) => depth.get(earlier) ?? 0)))
  }
  return Math.max(0, ...depth.values())
}

/** One request as the network stack saw it. */
export interface WireRequest {
  url: string
  /** When it was sent, ms since the epoch. */
  sentAt: number
  /** Bytes received, headers included; 0 until it has finished (or when it failed). */
  bytes: number
}

/**
 * Every request of the page from now on, with the bytes it took on the wire
 * as the network stack counts them (CDP's `encodedDataLength` when it
 * finished: what DevTools shows as transferred). Resource Timing's
 * `transferSize` counts the answer's headers as a flat 300 bytes, whatever
 * they weigh — a thousand each here before issue 27 — so it is not used for
 * bytes. `cdp` must have the network domain enabled (throttle() does); read
 * the answer once the page is quiet, when every request has finished.
 */
export function recordWire(cdp: CDPSession): () => WireRequest[] {
  const requests = new Map<string, WireRequest>()
  cdp.on('Network.requestWillBeSent', (event) => {
    // A redirect is the same id again: the first send is when it was asked.
    if (requests.has(event.requestId)) return
    requests.set(event.requestId, {
      url: event.request.url,
      sentAt: event.wallTime * 1000,
      bytes: 0,
    })
  })
  cdp.on('Network.loadingFinished', (event) => {
    const request = requests.get(event.requestId)
    if (request) request.bytes = event.encodedDataLength
  })
  return () => [...requests.values()]
}

/** Bytes on the wire of the requests sent before the balances showed (still arriving ones too). */
export const bytesBeforeBalances = (wire: readonly WireRequest[], load: FirstLoad) =>
  wire
    .filter((request) => request.sentAt < load.timeOrigin + load.balanceAt)
    .reduce((sum, request) => sum + request.bytes, 0)

/** Bytes on the wire of every request recorded. */
export const bytesOnWire = (wire: readonly WireRequest[]) =>
  wire.reduce((sum, request) => sum + request.bytes, 0)

/** Resolves once the page has started no request for `quietMs` (the visit has settled). */
export async function waitForQuiet(page: Page, quietMs = 2_000, timeout = 60_000) {
  const deadline = Date.now() + timeout
  let count = -1
  let since = Date.now()
  while (Date.now() < deadline) {
    const now = await page.evaluate(() => performance.getEntriesByType('resource').length)
    if (now !== count) {
      count = now
      since = Date.now()
    } else if (Date.now() - since >= quietMs) {
      return
    }
    await new Promise((resolve) => setTimeout(resolve, 250))
  }
}

/** A browser storage state holding a signed-in session (storageWithTokens). */
export type SignedIn = Awaited<ReturnType<typeof storageWithTokens>>

/**
 * A storage state holding only the session: the token pair in the app's
 * vault (db "auth", store "vault"), written from a page that runs none of
 * the app (/healthz), in a context that allows no worker.
 */
export async function storageWithTokens(
  newContext: (options: Parameters<Browser['newContext']>[0]) => Promise<BrowserContext>,
  baseUrl: string,
  tokens: Tokens,
) {
  const context = await newContext({ serviceWorkers: 'block' })
  const page = await context.newPage()
  await page.goto(`${baseUrl}/healthz`)
  await writeVault(page, tokens)
  const state = await context.storageState({ indexedDB: true })
  await context.close()
  return state
}

/** Creates a wallet with an Ethereum address and waits until 0.5 ETH is available in it. */
export async function fundWallet(baseUrl: string, accessToken: string): Promise<void> {
  const headers = {
    ...TENANT_HEADERS,
    'content-type': 'application/json',
    authorization: `Bearer ${accessToken}`,
  }
  const call = async (method: string, path: string, body?: unknown) => {
    const response = await fetch(`${baseUrl}${path}`, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    })
    if (!response.ok) {
      throw new Error(`${method} ${path} answered ${response.status}: ${await response.text()}`)
    }
    return response.json() as Promise<Record<string, unknown>>
  }

  const wallet = (await call('POST', '/api/v2/wallets', { type: 'personal' })) as { uuid: string }
  await call('POST', `/api/v2/wallets/${wallet.uuid}/addresses/ethereum`, {})
  await call('POST', '/api/sandbox/deposits', {
    wallet_uuid: wallet.uuid,
    chain: 'ethereum',
    currency: 'ETH',
    amount: '0.5',
  })

  const deadline = Date.now() + 30_000
  for (;;) {
    const current = (await call('GET', `/api/v2/wallets/${wallet.uuid}`)) as {
      balances: Array<{ currency: string; available: string }>
    }
    const eth = current.balances.find((balance) => balance.currency === 'ETH')
    if (eth && Number(eth.available) === 0.5) return
    if (Date.now() > deadline) throw new Error('the sandbox deposit did not complete in 30 s')
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
}

/** Waits until the offline snapshot (db "query-cache") holds the wallet list with its ETH. */
export async function waitForPersistedBalance(page: Page, timeout = 60_000): Promise<void> {
  const deadline = Date.now() + timeout
  while (Date.now() < deadline) {
    const persisted = await page.evaluate(
      () =>
        new Promise<boolean>((resolve, reject) => {
          const open = indexedDB.open('query-cache')
          open.onerror = () => reject(open.error)
          open.onsuccess = () => {
            const db = open.result
            if (!db.objectStoreNames.contains('clients')) {
              db.close()
              resolve(false)
              return
            }
            const read = db.transaction('clients').objectStore('clients').getAll()
            read.onerror = () => reject(read.error)
            read.onsuccess = () => {
              db.close()
              const queries = (
                read.result as Array<{
                  clientState: {
                    queries: Array<{
                      queryKey: unknown[]
                      state: {
                        data?: {
                          data?: Array<{
                            balances?: Array<{ currency: string; available: string }>
                          }>
                        }
                      }
                    }>
                  }
                }>
              ).flatMap((client) => client.clientState.queries)
              const list = queries.find(
                (query) => JSON.stringify(query.queryKey) === JSON.stringify(['wallets', 'list']),
              )
              resolve(
                (list?.state.data?.data ?? []).some((wallet) =>
                  (wallet.balances ?? []).some(
                    (balance) => balance.currency === 'ETH' && Number(balance.available) > 0,
                  ),
                ),
              )
            }
          }
        }),
    )
    if (persisted) return
    await new Promise((resolve) => setTimeout(resolve, 200))
  }
  throw new Error('the persisted snapshot never held the wallet list with its balance')
}
