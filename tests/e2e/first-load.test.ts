import { expect, test } from 'vitest'
import { waitForServiceWorkerControl } from '../support/e2e-app.ts'
import { e2eSession } from '../support/e2e-server.ts'
import {
  BALANCE_TEXT,
  fundWallet,
  isApi,
  observeBalance,
  readFirstLoad,
  roundTripsInARow,
  SLOW_LINK,
  signUp,
  storageWithTokens,
  throttle,
  waitForPersistedBalance,
} from '../support/first-load.ts'

/*
 * Issue 16: the first screen as fast as the network allows. On a slow link
 * (DevTools' 3G: 562.5 ms round trip) every API call home needs leaves at
 * once; offline, the balances come from the cache with no request waiting
 * for the network to fail. The timeline is the page's own (Resource Timing).
 */

const session = e2eSession({ SANDBOX_BLOCK_MS: '50' })

async function fundedUser(tag: string) {
  const tokens = await signUp(session.server.url, `${tag}-${Date.now()}@example.com`)
  await fundWallet(session.server.url, tokens.access_token)
  return storageWithTokens((options) => session.newContext(options), session.server.url, tokens)
}

test('a cold visit sends every API call the balances need before the first one is answered', async () => {
  const context = await session.newContext({
    locale: 'en-US',
    storageState: await fundedUser('first-load-cold'),
  })
  const page = await context.newPage()
  await page.addInitScript(observeBalance(BALANCE_TEXT))
  await throttle(context, page, { network: SLOW_LINK })
  await page.goto(`${session.server.url}/`, { waitUntil: 'commit' })
  const load = await readFirstLoad(page, 60_000)

  const calls = load.requests.filter(
    (request) => isApi(request) && request.responseEnd > 0 && request.responseEnd <= load.balanceAt,
  )
  const paths = calls.map((call) => new URL(call.url).pathname)
  expect(paths).toEqual(
    expect.arrayContaining([
      '/api/v2/tenants/config',
      '/api/v2/user',
      '/api/v2/wallets',
      '/api/v2/rates',
    ]),
  )
  // All asked before any was answered: one round trip, not a chain.
  const lastAsked = Math.max(...calls.map((call) => call.startTime))
  // The first byte of the answer; its end where the browser does not expose the start.
  const firstAnswered = Math.min(...calls.map((call) => call.responseStart || call.responseEnd))
  expect(lastAsked).toBeLessThan(firstAnswered)
  expect(roundTripsInARow(load)).toBe(1)
})

test('an offline reload shows the balances from the cache, no request waiting for the network to fail', async () => {
  const context = await session.newContext({
    locale: 'en-US',
    storageState: await fundedUser('first-load-offline'),
  })
  const page = await context.newPage()
  await page.goto(`${session.server.url}/`)
  await waitForServiceWorkerControl(page)
  await page.getByTestId('balance').filter({ hasText: BALANCE_TEXT }).first().waitFor()
  await waitForPersistedBalance(page)

  await context.setOffline(true)
  const failed: string[] = []
  page.on('requestfailed', (request) => failed.push(request.url()))
  await page.addInitScript(observeBalance(BALANCE_TEXT))
  await page.reload({ waitUntil: 'commit' })
  const load = await readFirstLoad(page)
  await page.getByText(/^Offline · updated /).waitFor()

  // Nothing asked the API before the balances showed, and nothing failed on the way.
  const before = load.requests.filter((request) => request.startTime < load.balanceAt)
  expect(before.filter(isApi).map((request) => request.url)).toEqual([])
  expect(failed).toEqual([])
})
