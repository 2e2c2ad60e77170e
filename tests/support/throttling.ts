import type { Browser, BrowserContext, CDPSession, Page } from 'playwright-core'

/*
 * A phone's slow link and slow CPU, through the DevTools protocol: on the page,
 * and on the service worker (which the page's throttling does not reach). Used
 * by the first-load e2e tests and by bench/first-load.ts.
 */

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
