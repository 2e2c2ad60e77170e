import { expect, test } from 'vitest'
import { DEMO_TENANT_ID } from '../../contract/tenancy.ts'
import { signInAsDemo } from '../support/demo-routes.ts'
import { openTab, readPersistedQueryKeys, waitForServiceWorkerControl } from '../support/e2e-app.ts'
import { e2eSession } from '../support/e2e-server.ts'
import { setOffline } from '../support/offline.ts'

/*
 * Issue 33: the demo user checks the day's proof of balances on their own
 * device — in the worker, against the key it pins — and, once the proof and
 * the key are saved, checks it again with no network at all.
 */

const session = e2eSession()

/** "Your €2,410.10, 0.0125 BTC, 0.85 ETH, 320.5 USDC, and 1,750 USDT are included in…" (a no-break space before each code). */
const VERDICT =
  /^Your €[\d,.]+, [\d.]+\sBTC, .+\sUSDT are included in the proof of [A-Z][a-z]{2} \d{1,2} \(verified on this device\)$/

test('the demo user verifies the proof of balances, and again offline from what the device saved', async () => {
  const { url } = session.server
  // The server publishes the demo tenant's first proof as it starts.
  await expect
    .poll(async () => {
      const roots = await fetch(`${url}/api/proofs/${DEMO_TENANT_ID}/roots`)
      return ((await roots.json()) as { data?: unknown[] }).data?.length ?? 0
    })
    .toBe(1)

  const context = await session.newContext({ locale: 'en-US' })
  const page = await context.newPage()
  await signInAsDemo(page, url)
  await waitForServiceWorkerControl(page)
  await openTab(page, 'Profile')
  await page.getByRole('link', { name: /^Proof of balances/ }).click()
  const verdict = page.getByTestId('proof-verdict')
  await expect.poll(() => verdict.textContent()).toMatch(VERDICT)
  await page.getByText('This device trusts it from this check on').waitFor()

  // Writes are throttled: wait until the proof and the key are on disk.
  await expect
    .poll(() => readPersistedQueryKeys(page))
    .toEqual(
      expect.arrayContaining([
        ['proofs', 'mine'],
        ['proofs', 'key', DEMO_TENANT_ID],
      ]),
    )

  await setOffline(context, true)
  await page.reload()
  await expect.poll(() => verdict.textContent()).toMatch(VERDICT)
  await page.getByText('You’re offline: checked with the proof saved on this device.').waitFor()
  // The key pinned at the first check is the one checked against now.
  await page.getByText(/^This device has trusted it since /).waitFor()
})
