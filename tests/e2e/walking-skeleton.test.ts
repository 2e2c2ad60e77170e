import type { Browser, BrowserContext, BrowserContextOptions, Page } from 'playwright-core'
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest'
import {
  expectSignedInAs,
  fetchUserInParallel,
  PASSWORD,
  pathOf,
  readVault,
  signInThroughUi,
  signUpThroughApi,
  signUpThroughUi,
  uniqueEmail,
  waitForAccessTokenExpiry,
  waitForServiceWorkerControl,
  writeVault,
} from '../support/e2e-app.ts'
import {
  launchBrowser,
  metricValue,
  type RunningServer,
  startServer,
  TENANT_HEADERS,
} from '../support/e2e-server.ts'

/*
 * The walking skeleton end to end: the built app, its service worker and the
 * real server on PGlite, driven in Chromium. One server per describe; every
 * test gets its own browser context (its own storage, worker and cookies).
 */

let browser: Browser
const contexts: BrowserContext[] = []

beforeAll(async () => {
  browser = await launchBrowser()
})

afterEach(async () => {
  await Promise.all(contexts.splice(0).map((context) => context.close()))
})

afterAll(async () => {
  await browser?.close()
})

async function openPage(options: BrowserContextOptions = {}): Promise<Page> {
  const context = await browser.newContext({ locale: 'en-US', ...options })
  context.setDefaultTimeout(15_000)
  contexts.push(context)
  return context.newPage()
}

/** A server for the tests of one describe, stopped after them. */
function serverFor(env: Record<string, string> = {}): () => RunningServer {
  let server: RunningServer | undefined
  beforeAll(async () => {
    server = await startServer(env)
  })
  afterAll(async () => {
    await server?.stop()
  })
  return () => {
    if (!server) throw new Error('the server did not start')
    return server
  }
}

const refreshes = async (server: RunningServer) => {
  const text = await server.metrics()
  const count = (outcome: string) =>
    metricValue(text, 'auth_token_refresh_total', { outcome }) ?? Number.NaN
  return { rotated: count('rotated'), grace: count('grace'), reused: count('reuse_revoked') }
}

describe('with the default token lifetimes', () => {
  const server = serverFor()

  test('a person signs up, signs out and signs in again through the screens', async () => {
    const page = await openPage()
    const email = uniqueEmail('walk')

    await signUpThroughUi(page, server().url, email)
    expect(pathOf(page)).toBe('/')

    await page.getByRole('link', { name: 'Sign out' }).click()
    await page.waitForURL('**/auth/sign-in')
    await page.getByRole('button', { name: 'Sign in', exact: true }).waitFor()
    expect(await readVault(page)).toBeUndefined()

    await signInThroughUi(page, email, PASSWORD)
    await expectSignedInAs(page, email)
    expect(pathOf(page)).toBe('/')
  })

  test('a wrong password shows an error and stays on sign-in', async () => {
    const email = uniqueEmail('wrong')
    await signUpThroughApi(server().url, email)
    const page = await openPage()
    await page.goto(`${server().url}/auth/sign-in`)

    await signInThroughUi(page, email, `${PASSWORD}-not`)
    await page.getByRole('alert').filter({ hasText: 'The email or password is wrong.' }).waitFor()
    expect(pathOf(page)).toBe('/auth/sign-in')
    expect(await readVault(page)).toBeUndefined()
  })

  test('the service worker injects tenant, app environment and token into API calls', async () => {
    const page = await openPage()
    await signUpThroughUi(page, server().url, uniqueEmail('sw'))
    await waitForServiceWorkerControl(page)

    const call = await page.evaluate(async () => ({
      controller: navigator.serviceWorker.controller?.scriptURL ?? null,
      // No headers at all: the worker adds X-Tenant-Id, X-App-Env and Authorization.
      status: (await fetch('/api/v2/user')).status,
    }))
    expect(call.controller).toMatch(/\/sw\.js$/)
    expect(call.status).toBe(200)
  })

  test("the worker's remembered tokens give way to another context's change as it is announced", async () => {
    const page = await openPage()
    const first = uniqueEmail('sw-remembers')
    await signUpThroughUi(page, server().url, first)
    await waitForServiceWorkerControl(page)
    const whoAmI = () =>
      page.evaluate(async () => {
        const body = (await (await fetch('/api/v2/user')).json()) as { email?: string }
        return body.email
      })
    expect(await whoAmI()).toBe(first)

    // Another context (a page no worker controls) stores someone else's session
    // and announces it, as src/storage/token-vault.ts does after every write.
    const second = uniqueEmail('sw-announced')
    const tokens = await signUpThroughApi(server().url, second)
    await writeVault(page, tokens, true)
    // The first access token is still valid: only the announcement makes the worker read again.
    await expect.poll(whoAmI, { timeout: 5_000 }).toBe(second)
  })

  for (const worker of ['allow', 'block'] as const) {
    const who = worker === 'allow' ? 'the service worker' : 'the page proxy (no worker)'
    test(`a revoked session sends the window to the logout location (${who})`, async () => {
      const page = await openPage({ serviceWorkers: worker })
      await signUpThroughUi(page, server().url, uniqueEmail(`revoke-${worker}`))
      if (worker === 'allow') await waitForServiceWorkerControl(page)
      const controlled = await page.evaluate(() => navigator.serviceWorker.controller !== null)
      expect(controlled).toBe(worker === 'allow')

      // End the session on the server: its access token dies with it.
      const tokens = await readVault(page)
      expect(tokens?.refresh_token).toBeTruthy()
      const signOut = await fetch(`${server().url}/api/v2/auth/sign-out`, {
        method: 'POST',
        headers: { ...TENANT_HEADERS, 'content-type': 'application/json' },
        body: JSON.stringify({ refresh_token: tokens?.refresh_token }),
      })
      expect(signOut.status).toBe(204)

      const visited: string[] = []
      page.on('framenavigated', (frame) => {
        if (frame === page.mainFrame()) visited.push(new URL(frame.url()).pathname)
      })
      const reachedLogout = page.waitForURL('**/auth/logout')
      // 401, the refresh is refused, the proxy logs out: the page navigates away
      // mid-call, so nothing here waits for the answer.
      await page.evaluate(() => {
        void fetch('/api/v2/user').catch(() => undefined)
      })
      await reachedLogout
      await page.waitForURL('**/auth/sign-in')
      await page.getByRole('button', { name: 'Sign in', exact: true }).waitFor()

      expect(visited).toContain('/auth/logout')
      expect(visited.at(-1)).toBe('/auth/sign-in')
      expect(await readVault(page)).toBeUndefined()
    })
  }

  test('the app is installable, cached right and runs under a strict CSP', async () => {
    const base = server().url
    const html = (path: string) => fetch(`${base}${path}`, { headers: { accept: 'text/html' } })

    const manifestResponse = await fetch(`${base}/manifest.webmanifest`)
    expect(manifestResponse.status).toBe(200)
    const manifest = (await manifestResponse.json()) as {
      name?: string
      icons?: Array<{ src: string; sizes: string; purpose?: string }>
    }
    expect(manifest.name).toBeTruthy()
    const icons = manifest.icons ?? []
    expect(icons.map((icon) => icon.sizes)).toEqual(expect.arrayContaining(['192x192', '512x512']))
    expect(icons.some((icon) => icon.purpose?.split(' ').includes('maskable'))).toBe(true)
    for (const icon of icons) {
      const response = await fetch(new URL(icon.src, `${base}/manifest.webmanifest`))
      expect(response.status, icon.src).toBe(200)
      expect(response.headers.get('content-type'), icon.src).toBe('image/png')
    }

    const index = await html('/')
    expect(index.status).toBe(200)
    const indexHtml = await index.text()
    expect(indexHtml).toMatch(/<link rel="manifest" href="\/manifest\.webmanifest"/)

    const csp = index.headers.get('content-security-policy') ?? ''
    const scriptSrc = csp
      .split(';')
      .map((directive) => directive.trim())
      .find((directive) => directive.startsWith('script-src'))
    expect(scriptSrc).toBeDefined()
    expect(scriptSrc).not.toContain("'unsafe-inline'")

    const sw = await fetch(`${base}/sw.js`)
    expect(sw.status).toBe(200)
    expect(sw.headers.get('cache-control')).toBe('no-cache')

    const entry = /<script type="module" crossorigin src="(\/assets\/[^"]+\.js)"/.exec(indexHtml)
    expect(entry?.[1]).toBeDefined()
    const asset = await fetch(`${base}${entry?.[1]}`)
    expect(asset.status).toBe(200)
    expect(asset.headers.get('cache-control')).toContain('immutable')

    const deepLink = await html('/some/deep/link')
    expect(deepLink.status).toBe(200)
    expect(deepLink.headers.get('content-type')).toMatch(/^text\/html/)
    expect(await deepLink.text()).toContain('<div id="root"></div>')

    // In the browser: the page, its styles, the worker and the manifest load
    // without a single Content-Security-Policy violation.
    const page = await openPage()
    const violations: string[] = []
    page.on('console', (message) => {
      if (message.type() === 'error' && message.text().includes('Content Security Policy')) {
        violations.push(message.text())
      }
    })
    await page.addInitScript(() => {
      document.addEventListener('securitypolicyviolation', (event) => {
        console.error(
          `Content Security Policy violation: ${event.violatedDirective} ${event.blockedURI}`,
        )
      })
    })
    await page.goto(`${base}/`)
    await page.waitForURL('**/auth/sign-in')
    await page.getByRole('button', { name: 'Sign in', exact: true }).waitFor()
    await waitForServiceWorkerControl(page)
    expect(violations).toEqual([])
  })

  test('a Russian browser gets the Russian screens', async () => {
    const page = await openPage({ locale: 'ru-RU' })
    await page.goto(`${server().url}/`)
    await page.waitForURL('**/auth/sign-in')
    await page.getByRole('button', { name: 'Войти', exact: true }).waitFor()
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('ru')
  })
})

/*
 * Twenty calls fail at once with an expired access token: exactly one refresh
 * goes to the server, and every call is replayed with the new token.
 * Short-lived tokens need their own server, with fresh counters, per host.
 */
for (const worker of ['allow', 'block'] as const) {
  const who = worker === 'allow' ? 'the service worker' : 'the page proxy (no worker)'
  describe(`with 5-second access tokens, through ${who}`, () => {
    // Whole-second expiry: a 5 s token lives 4–5 s, room for 20 replays on a busy machine.
    const server = serverFor({ ACCESS_TOKEN_TTL: '5' })

    test('20 parallel calls after the token expired cause exactly one rotation', async () => {
      const page = await openPage({ serviceWorkers: worker })
      await signUpThroughUi(page, server().url, uniqueEmail(`burst-${worker}`))
      if (worker === 'allow') await waitForServiceWorkerControl(page)
      expect(await page.evaluate(() => navigator.serviceWorker.controller !== null)).toBe(
        worker === 'allow',
      )

      await waitForAccessTokenExpiry(page)
      const before = await refreshes(server())
      const statuses = await fetchUserInParallel(page, 20)
      const after = await refreshes(server())
      console.log(
        `[${who}] refreshes before the burst: ${JSON.stringify(before)}, after: ${JSON.stringify(after)}`,
      )

      expect(statuses).toEqual(Array(20).fill(200))
      expect(after.rotated - before.rotated).toBe(1)
      expect(after.grace - before.grace).toBe(0)
      expect(after.reused).toBe(0)
    })
  })
}
