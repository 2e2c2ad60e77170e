import { expect, test } from 'vitest'
import { signUpThroughApi, waitForServiceWorkerControl } from '../support/e2e-app.ts'
import { e2eSession } from '../support/e2e-server.ts'
import {
  bytesBeforeBalances,
  isApi,
  observeBalance,
  readFirstLoad,
  readRequestsOnceAnswered,
  recordWire,
  roundTripsInARow,
  waitForQuiet,
} from '../support/first-load.ts'
import {
  BALANCE_TEXT,
  fundWallet,
  storageWithTokens,
  waitForPersistedBalance,
} from '../support/funded-session.ts'
import { setOffline } from '../support/offline.ts'
import { CPU_SLOWDOWN, SLOW_LINK, throttle } from '../support/throttling.ts'

/*
 * Issues 16 and 27: the first screen as fast as the network allows. On a slow
 * link (DevTools' slow 4G: 562.5 ms round trip as applied) every API call home
 * needs leaves at once, and what it costs before the balances show stays
 * within 150 KB; offline, the balances come from the cache with no request
 * waiting for the network to fail. The timeline is the page's own (Resource
 * Timing), the bytes the network stack's (CDP).
 */

const session = e2eSession({ SANDBOX_BLOCK_MS: '50' })

async function fundedUser(tag: string) {
  const tokens = await signUpThroughApi(session.server.url, `${tag}-${Date.now()}@example.com`)
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

  // The first call of each that home's balances and their values need. Whether the
  // rates' answer lands before or just after the balances paint is the sandbox
  // provider's latency, not the boot's: what counts is that each was asked at once.
  const needed = ['/api/v2/tenants/config', '/api/v2/user', '/api/v2/wallets', '/api/v2/rates']
  const requests = await readRequestsOnceAnswered(page, needed)
  const calls = needed.map((path) =>
    requests.find((request) => isApi(request) && new URL(request.url).pathname === path),
  )
  expect(
    calls.map((call, i) => call && needed[i]),
    'every call home needs was made',
  ).toEqual(needed)
  const asked = calls.filter((call) => call !== undefined)
  const wallets = asked[2]!
  expect(wallets.responseEnd, 'the wallets answered before the balances showed').toBeGreaterThan(0)
  expect(wallets.responseEnd).toBeLessThanOrEqual(load.balanceAt)
  // All asked before any was answered: one round trip, not a chain.
  const lastAsked = Math.max(...asked.map((call) => call.startTime))
  // The first byte of the answer; its end where the browser does not expose the start.
  const answered = asked.filter((call) => call.responseEnd > 0)
  const firstAnswered = Math.min(...answered.map((call) => call.responseStart || call.responseEnd))
  expect(lastAsked).toBeLessThan(firstAnswered)
  expect(roundTripsInARow({ ...load, requests })).toBe(1)
})

test('a cold visit takes at most 150 KB before the balances show, headers included, and asks for the rates once', async () => {
  const context = await session.newContext({
    locale: 'en-US',
    storageState: await fundedUser('first-load-bytes'),
  })
  const page = await context.newPage()
  await page.addInitScript(observeBalance(BALANCE_TEXT))
  const wire = recordWire(await throttle(context, page, { network: SLOW_LINK, cpu: CPU_SLOWDOWN }))
  await page.goto(`${session.server.url}/`, { waitUntil: 'commit' })
  const load = await readFirstLoad(page, 60_000)
  await waitForQuiet(page)

  const before = bytesBeforeBalances(wire(), load)
  expect(before, `${(before / 1024).toFixed(1)} KB before the balances`).toBeLessThanOrEqual(
    150 * 1024,
  )
  // One base for every display currency (the tenant's is EUR, the browser's guess USD).
  const rates = wire()
    .map((request) => new URL(request.url))
    .filter((url) => url.pathname === '/api/v2/rates')
  expect(rates.map((url) => url.searchParams.get('base'))).toEqual(['USD'])
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

  await setOffline(context, true)
  // This page loads the notice's chunk as it goes offline: that request, cut short by the
  // reload, would count as failed.
  await page.getByText(/^Offline · updated /).waitFor()
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
