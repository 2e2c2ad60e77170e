import type { BrowserContext } from 'playwright-core'

/**
 * Every document of the context reads `navigator.onLine` from what `setOffline`
 * last said (installed once per document, before the app's own scripts).
 */
const FOLLOW_OFFLINE = `(() => {
  if (globalThis.__e2eFollowsOffline) return
  globalThis.__e2eFollowsOffline = true
  const native = Object.getOwnPropertyDescriptor(Navigator.prototype, 'onLine').get
  Object.defineProperty(Navigator.prototype, 'onLine', {
    configurable: true,
    get() {
      return globalThis.__e2eOffline === undefined ? native.call(this) : !globalThis.__e2eOffline
    },
  })
})()`

const followsOffline = new WeakSet<BrowserContext>()

/**
 * Takes the context off the network, or back on, as a device loses and finds
 * its connection. Playwright's `setOffline` alone is not enough with Debian's
 * Chromium 150: the network is cut, but a document loaded meanwhile (a reload,
 * a new tab) starts with `navigator.onLine` true — the app would take the cold
 * start for an online one — and hears no `online` event when the network
 * comes back, having never heard it go. So every document reads the state set
 * here, and each open one is told of the change as the browser would tell it.
 */
export async function setOffline(context: BrowserContext, offline: boolean): Promise<void> {
  if (!followsOffline.has(context)) {
    followsOffline.add(context)
    await context.addInitScript(FOLLOW_OFFLINE)
  }
  await context.addInitScript(`globalThis.__e2eOffline = ${offline}`)
  for (const page of context.pages()) {
    await page.evaluate(FOLLOW_OFFLINE)
    await page.evaluate((value) => {
      ;(globalThis as { __e2eOffline?: boolean }).__e2eOffline = value
    }, offline)
  }
  await context.setOffline(offline)
  for (const page of context.pages()) {
    await page.evaluate((value) => {
      window.dispatchEvent(new Event(value ? 'offline' : 'online'))
    }, offline)
  }
}
