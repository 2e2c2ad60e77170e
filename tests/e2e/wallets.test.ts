import { readFile } from 'node:fs/promises'
import type { Page } from 'playwright-core'
import { expect, test } from 'vitest'
import {
  pathOf,
  signUpThroughUi,
  uniqueEmail,
  waitForServiceWorkerControl,
} from '../support/e2e-app.ts'
import { e2eSession, TENANT_HEADERS } from '../support/e2e-server.ts'
import { setOffline } from '../support/offline.ts'

/*
 * A wallet from creation to an exported history: a deposit address, a sandbox
 * deposit watched until complete, the CSV, and all of it again offline.
 */

const session = e2eSession()

test('create a wallet, get an address, watch a deposit complete, export it, see it offline', async () => {
  const context = await session.newContext({ locale: 'en-US', acceptDownloads: true })
  const page = await context.newPage()

  await signUpThroughUi(page, session.server.url, uniqueEmail('wallets'))
  await waitForServiceWorkerControl(page)

  // Every account starts with a Personal wallet; this one adds a P2P wallet and uses it.
  await page.getByRole('link', { name: 'Personal wallet' }).waitFor()
  await page.getByRole('button', { name: 'Create wallet' }).click()
  await page.getByRole('radio', { name: /^P2P/ }).check()
  await page.getByRole('button', { name: 'Create wallet' }).click()
  await page.getByRole('link', { name: 'P2P wallet' }).click()
  await page.waitForURL('**/wallets/*')
  const walletUuid = pathOf(page).split('/').at(-1)!

  await page.getByRole('combobox', { name: 'Network' }).selectOption('ethereum')
  await page.getByRole('button', { name: 'Get address' }).click()
  const address = (await page.getByTestId('address').textContent())?.trim()
  expect(address).toMatch(/^0x[0-9a-fA-F]{40}$/)
  await page.getByRole('img', { name: `QR code of the address ${address}` }).waitFor()

  const response = await fetch(`${session.server.url}/api/sandbox/deposits`, {
    method: 'POST',
    headers: { ...TENANT_HEADERS, 'content-type': 'application/json' },
    body: JSON.stringify({
      wallet_uuid: walletUuid,
      chain: 'ethereum',
      currency: 'ETH',
      amount: '0.5',
    }),
  })
  expect(response.status).toBe(202)
  const deposit = (await response.json()) as { uuid: string }

  // The activity notices the deposit (it polls) and watches it until it settles (then the row
  // shows its time instead of a status); the balance follows.
  const row = page
    .getByTestId('activity-row')
    .filter({ hasText: 'ETH deposit' })
    .filter({ hasText: '+0.5\u00a0ETH' })
  await row.and(page.locator('[data-status="complete"]')).waitFor({ timeout: 45_000 })
  await page
    .getByTestId('balance')
    .filter({ hasText: /0\.5\sETH/ })
    .waitFor()

  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Download CSV' }).click(),
  ])
  await page.getByText(/^Downloaded /).waitFor()
  const csv = await readFile((await download.path())!, 'utf8')
  expect(csv).toContain(deposit.uuid)

  // Writes are throttled: wait until the wallet with its balance is on disk.
  await expect
    .poll(() => persistedBalances(page, walletUuid), { timeout: 10_000 })
    .toEqual([expect.objectContaining({ currency: 'ETH' })])

  await setOffline(context, true)
  await page.reload()
  await page.getByText(/^Offline · updated /).waitFor()
  await page
    .getByTestId('balance')
    .filter({ hasText: /0\.5\sETH/ })
    .waitFor()
  // The feed reads from the snapshot too.
  await row.and(page.locator('[data-status="complete"]')).waitFor()
  expect(await page.getByRole('button', { name: 'Download CSV' }).isDisabled()).toBe(true)
})

/** The balances of the wallet as the offline snapshot (db "query-cache") holds them. */
function persistedBalances(page: Page, walletUuid: string): Promise<unknown[]> {
  return page.evaluate(
    (uuid) =>
      new Promise<unknown[]>((resolve, reject) => {
        const open = indexedDB.open('query-cache')
        open.onerror = () => reject(open.error)
        open.onsuccess = () => {
          const read = open.result.transaction('clients').objectStore('clients').getAll()
          read.onerror = () => reject(read.error)
          read.onsuccess = () => {
            open.result.close()
            const queries = (
              read.result as Array<{
                clientState: {
                  queries: Array<{
                    queryKey: unknown[]
                    state: { data?: { balances?: unknown[] } }
                  }>
                }
              }>
            ).flatMap((client) => client.clientState.queries)
            const wallet = queries.find(
              (query) =>
                JSON.stringify(query.queryKey) === JSON.stringify(['wallets', 'detail', uuid]),
            )
            resolve(wallet?.state.data?.balances ?? [])
          }
        }
      }),
    walletUuid,
  )
}
