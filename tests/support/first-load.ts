import type { CDPSession, Page } from 'playwright-core'

/*
 * What a first screen costs, read from the page itself: when the balances
 * showed (a MutationObserver installed before any script), which API calls
 * went out before then and when each was answered (Resource Timing, on the
 * same clock), and the bytes every request took on the wire. Used by the
 * first-load e2e tests and by bench/first-load.ts.
 */

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
