import type { Page } from 'playwright-core'
import { readVault } from './e2e-app.ts'
import { e2eSession, TENANT_HEADERS } from './e2e-server.ts'

/*
 * What the card e2e files (cards.test.ts, cards-control.test.ts) share: their server, the calls
 * they make beside the app (v1 with the page's token, orders, the sandbox card network), and
 * what they read off the page.
 */

interface CardTransaction {
  id: string
  status: string
  decline_reason: string | null
  authorization_id: string | null
  activity_id: string
}

/**
 * A card e2e file's browser and server (`env` on top of the job runner polling every 100 ms and
 * no demo data), and the calls its tests make beside the app.
 */
export function cardsSession(env: Record<string, string> = {}) {
  const session = e2eSession({ JOBS_POLL_MS: '100', DEMO_SEED: 'false', ...env })

  /** A v1 call (raw token) with the token the page holds. */
  async function v1<T>(page: Page, method: string, path: string, body?: unknown): Promise<T> {
    const tokens = await readVault(page)
    if (!tokens) throw new Error('no tokens in the vault')
    const response = await fetch(`${session.server.url}/api/v1${path}`, {
      method,
      headers: {
        ...TENANT_HEADERS,
        authorization: tokens.access_token,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    })
    const text = await response.text()
    if (!response.ok) throw new Error(`${method} ${path} answered ${response.status}: ${text}`)
    return JSON.parse(text) as T
  }

  /** A quote, then the order placed on it. */
  async function placeOrder(
    page: Page,
    type: string,
    query: Record<string, string>,
  ): Promise<Record<string, unknown>> {
    const params = new URLSearchParams({ order_type: type, ...query })
    const quote = await v1<{ quote_id: string }>(page, 'GET', `/orders/calc?${params}`)
    return v1(page, 'POST', `/orders/${type}`, { quote_id: quote.quote_id })
  }

  /** A message from the sandbox card network. */
  async function network(body: Record<string, unknown>): Promise<CardTransaction> {
    const response = await fetch(`${session.server.url}/api/sandbox/card-transactions`, {
      method: 'POST',
      headers: { ...TENANT_HEADERS, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    })
    const text = await response.text()
    if (response.status !== 201) throw new Error(`the card network got ${response.status}: ${text}`)
    return JSON.parse(text) as CardTransaction
  }

  return { session, v1, placeOrder, network }
}

/** The balance under the card picture. */
export async function cardBalance(page: Page): Promise<string> {
  return (await page.getByTestId('card-balance').innerText()).trim()
}

/** A revealed secret as the card picture shows it, without its spoken label. */
export async function secretValue(page: Page, testId: string): Promise<string> {
  const text = (await page.getByTestId(testId).textContent()) ?? ''
  return text.replace(/^[^:]*:\s*/, '').trim()
}

/**
 * Everything the page's origin keeps: localStorage, sessionStorage, every
 * record of every IndexedDB store, every response in Cache Storage.
 */
export function storageDump(page: Page): Promise<[string, string][]> {
  return page.evaluate(async () => {
    const sources: [string, string][] = []
    const json = (value: unknown) =>
      JSON.stringify(value, (_key, item) =>
        typeof item === 'bigint'
          ? item.toString()
          : item instanceof ArrayBuffer || ArrayBuffer.isView(item)
            ? Array.from(new Uint8Array(item instanceof ArrayBuffer ? item : item.buffer))
            : item,
      )
    for (const [name, storage] of [
      ['localStorage', localStorage],
      ['sessionStorage', sessionStorage],
    ] as const) {
      const entries: Record<string, string | null> = {}
      for (let index = 0; index < storage.length; index++) {
        const key = storage.key(index)!
        entries[key] = storage.getItem(key)
      }
      sources.push([name, JSON.stringify(entries)])
    }
    for (const info of await indexedDB.databases()) {
      if (!info.name) continue
      const db = await new Promise<IDBDatabase>((resolve, reject) => {
        const open = indexedDB.open(info.name!)
        open.onsuccess = () => resolve(open.result)
        open.onerror = () => reject(open.error)
      })
      for (const store of Array.from(db.objectStoreNames)) {
        const records = await new Promise<unknown[]>((resolve, reject) => {
          const read = db.transaction(store).objectStore(store).getAll()
          read.onsuccess = () => resolve(read.result)
          read.onerror = () => reject(read.error)
        })
        sources.push([`indexedDB ${info.name}/${store}`, json(records)])
      }
      db.close()
    }
    for (const name of await caches.keys()) {
      const cache = await caches.open(name)
      for (const request of await cache.keys()) {
        const response = await cache.match(request)
        sources.push([`cache ${name} ${request.url}`, response ? await response.text() : ''])
      }
    }
    return sources
  })
}

export const groupedPan = (pan: string) => pan.replace(/(\d{4})(?=\d)/g, '$1 ')

/** The Luhn check digit test card numbers pass. */
export function luhn(number: string): boolean {
  let sum = 0
  for (let index = 0; index < number.length; index++) {
    let digit = Number(number[number.length - 1 - index])
    if (index % 2 === 1) {
      digit *= 2
      if (digit > 9) digit -= 9
    }
    sum += digit
  }
  return sum % 10 === 0
}
