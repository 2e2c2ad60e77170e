import type { Browser, BrowserContext, Page } from 'playwright-core'
import { type Tokens, writeVault } from './e2e-app.ts'
import { TENANT_HEADERS } from './e2e-server.ts'

/*
 * The person a first load is measured for: signed in (a storage state holding
 * the session alone), 0.5 ETH in a wallet, and that balance in the offline
 * snapshot. Used by the first-load e2e tests and by bench/first-load.ts.
 */

/**
 * The balance of fundWallet's wallet as the home screen formats it in en-US
 * (crypto with its trailing zeros trimmed, src/i18n/money.ts), and not part
 * of a larger number.
 */
export const BALANCE_TEXT = /(?<![\d.,])0\.5\sETH/

/** A browser storage state holding a signed-in session (storageWithTokens). */
export type SignedIn = Awaited<ReturnType<typeof storageWithTokens>>

/**
 * A storage state holding only the session: the token pair in the app's
 * vault (db "auth", store "vault"), written from a page that runs none of
 * the app (/healthz), in a context that allows no worker.
 */
export async function storageWithTokens(
  newContext: (options: Parameters<Browser['newContext']>[0]) => Promise<BrowserContext>,
  baseUrl: string,
  tokens: Tokens,
) {
  const context = await newContext({ serviceWorkers: 'block' })
  const page = await context.newPage()
  await page.goto(`${baseUrl}/healthz`)
  await writeVault(page, tokens)
  const state = await context.storageState({ indexedDB: true })
  await context.close()
  return state
}

/** Creates a wallet with an Ethereum address and waits until 0.5 ETH is available in it. */
export async function fundWallet(baseUrl: string, accessToken: string): Promise<void> {
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
export async function waitForPersistedBalance(page: Page, timeout = 60_000): Promise<void> {
  const deadline = Date.now() + timeout
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
