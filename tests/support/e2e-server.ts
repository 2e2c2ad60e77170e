import type { Browser, BrowserContext, BrowserContextOptions } from 'playwright-core'
import { afterAll, afterEach, beforeAll } from 'vitest'
import { launchBrowser, type RunningServer, startServer } from './server-process.ts'

export {
  CHROMIUM,
  freePort,
  launchBrowser,
  type RunningServer,
  startServer,
  TENANT_HEADERS,
} from './server-process.ts'

/**
 * The value of one sample in Prometheus text, e.g.
 * `metricValue(text, 'auth_token_refresh_total', { outcome: 'rotated' })`;
 * undefined when the series is absent.
 */
export function metricValue(
  text: string,
  name: string,
  labels: Record<string, string> = {},
): number | undefined {
  for (const line of text.split('\n')) {
    const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})?\s+(\S+)/.exec(line)
    if (!match || match[1] !== name) continue
    const found = Object.fromEntries(
      [...(match[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((m) => [m[1], m[2]]),
    )
    if (Object.entries(labels).every(([key, value]) => found[key] === value)) {
      return Number(match[3])
    }
  }
  return undefined
}

/**
 * One browser and one server for a test file (registered as its hooks); each
 * test opens its own context, closed after the test.
 */
export function e2eSession(env: Record<string, string> = {}) {
  let browser: Browser | undefined
  let server: RunningServer | undefined
  const contexts: BrowserContext[] = []
  beforeAll(async () => {
    ;[browser, server] = await Promise.all([launchBrowser(), startServer(env)])
  })
  afterEach(async () => {
    await Promise.all(contexts.splice(0).map((context) => context.close()))
  })
  afterAll(async () => {
    await Promise.all([browser?.close(), server?.stop()])
  })
  return {
    get server(): RunningServer {
      if (!server) throw new Error('the e2e server is not started yet (use it inside a test)')
      return server
    },
    async newContext(options: BrowserContextOptions = {}): Promise<BrowserContext> {
      if (!browser) throw new Error('the browser is not launched yet (use it inside a test)')
      const context = await browser.newContext(options)
      context.setDefaultTimeout(15_000)
      contexts.push(context)
      return context
    },
  }
}
