/**
 * First balances on screen, online and offline from the cache: the real server
 * (embedded PGlite, fresh data directory) and the built app in headless
 * Chromium. A user with one wallet holding 0.5 ETH (a sandbox deposit, watched
 * until complete); once the service worker controls the page and the persisted
 * snapshot holds the balance, RUNS navigations to / each way, alternating. The
 * time is the page's own clock (performance.now(), from the navigation's start)
 * when a MutationObserver first sees the balance text in the DOM.
 */
import type { BrowserContext, Page } from 'playwright-core'
import {
  expectSignedInAs,
  PASSWORD,
  signInThroughUi,
  uniqueEmail,
  waitForServiceWorkerControl,
} from '../tests/support/e2e-app.ts'
import { launchBrowser, startServer, TENANT_HEADERS } from '../tests/support/e2e-server.ts'

export const RUNS = 7
const TARGET_OFFLINE_MS = 1_000
/** The balance as the home screen formats it in en-US. */
const BALANCE_TEXT = /0\.50\sETH/
const TIMEOUT_MS = 15_000

export interface OfflineStart {
  online: number[]
  offline: number[]
}

export async function measureOfflineStart(): Promise<OfflineStart> {
  const [browser, server] = await Promise.all([
    launchBrowser(),
    startServer({ SANDBOX_BLOCK_MS: '50', LOG_LEVEL: 'error' }),
  ])
  try {
    const context = await browser.newContext({ locale: 'en-US' })
    context.setDefaultTimeout(TIMEOUT_MS)
    const page = await context.newPage()

    // Funded before the app first asks for the wallets, so its first answer has the balance.
    const email = uniqueEmail('bench-offline')
    await fundWallet(server.url, await signUp(server.url, email))

    await page.goto(`${server.url}/`)
    await page.waitForURL('**/auth/sign-in')
    await signInThroughUi(page, email, PASSWORD)
    await expectSignedInAs(page, email)
    await waitForServiceWorkerControl(page)
    await balanceLocator(page).waitFor()
    await waitForPersistedBalance(page)

    await context.addInitScript(observeBalance)
    // One unmeasured navigation each way: caches, compiled code, the worker awake.
    await timeToBalance(context, page, server.url, false)
    await timeToBalance(context, page, server.url, true)

    const result: OfflineStart = { online: [], offline: [] }
    for (let run = 0; run < RUNS; run++) {
      result.online.push(await timeToBalance(context, page, server.url, false))
      result.offline.push(await timeToBalance(context, page, server.url, true))
    }
    await context.close()
    return result
  } finally {
    await Promise.all([browser.close(), server.stop()])
  }
}

/** The table's two rows. */
export function offlineStartRows(result: OfflineStart) {
  const cell = (samples: number[]) =>
    `${Math.round(percentile(samples, 50))} ms (p90 ${Math.round(percentile(samples, 90))} ms)`
  return [
    {
      measure: `first balances visible, online (median of ${result.online.length})`,
      value: cell(result.online),
      target: 'yardstick',
    },
    {
      measure: `first balances visible, offline from cache (median of ${result.offline.length})`,
      value: cell(result.offline),
      target: `≤ ${TARGET_OFFLINE_MS} ms offline`,
    },
  ]
}

/** Nearest-rank percentile. */
function percentile(samples: number[], p: number): number {
  const sorted = [...samples].sort((a, b) => a - b)
  return sorted[Math.max(0, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN
}

const balanceLocator = (page: Page) => page.getByTestId('balance').filter({ hasText: BALANCE_TEXT })

/** Navigates to / (offline or not) and answers the page's time to the balance, in ms. */
async function timeToBalance(
  context: BrowserContext,
  page: Page,
  baseUrl: string,
  offline: boolean,
): Promise<number> {
  await context.setOffline(offline)
  try {
    await page.goto(`${baseUrl}/`, { waitUntil: 'commit' })
    const handle = await page.waitForFunction(
      () => (window as unknown as { __balanceAt?: number }).__balanceAt,
      undefined,
      { timeout: TIMEOUT_MS },
    )
    const at = (await handle.jsonValue()) as number
    // Visible, not only in the DOM: the locator checks layout too.
    await balanceLocator(page).waitFor()
    // Truly from the cache: the app says it is offline.
    if (offline) await page.getByText(/^Offline · updated /).waitFor()
    return at
  } finally {
    await context.setOffline(false)
  }
}

/**
 * Runs in the page before its scripts: notes performance.now() (ms since the
 * navigation started) the first time a balance element holds the text. A
 * string, not a function: tsx would wrap a function's inner names in helpers
 * the page does not have.
 */
const observeBalance = `{
  const pattern = new RegExp(${JSON.stringify(BALANCE_TEXT.source)})
  const observer = new MutationObserver(() => {
    const elements = document.querySelectorAll('[data-testid="balance"]')
    for (const element of elements) {
      if (!pattern.test(element.textContent || '')) continue
      window.__balanceAt = performance.now()
      observer.disconnect()
      return
    }
  })
  observer.observe(document, { childList: true, subtree: true, characterData: true })
}`

/** Creates an account through the API; answers its access token. */
async function signUp(baseUrl: string, email: string): Promise<string> {
  const response = await fetch(`${baseUrl}/api/v2/auth/sign-up/password/email`, {
    method: 'POST',
    headers: { ...TENANT_HEADERS, 'content-type': 'application/json' },
    body: JSON.stringify({ email, password: PASSWORD }),
  })
  if (response.status !== 201) {
    throw new Error(`sign-up answered ${response.status}: ${await response.text()}`)
  }
  return ((await response.json()) as { access_token: string }).access_token
}

/** Creates a wallet with an Ethereum address and waits until 0.5 ETH is available in it. */
async function fundWallet(baseUrl: string, accessToken: string): Promise<void> {
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
async function waitForPersistedBalance(page: Page): Promise<void> {
  const deadline = Date.now() + TIMEOUT_MS
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
