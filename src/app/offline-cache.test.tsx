import { randomUUID } from 'node:crypto'
import {
  IsRestoringProvider,
  QueryClient,
  QueryClientProvider,
  useQuery,
} from '@tanstack/react-query'
import { render, screen, waitFor } from '@testing-library/react'
import { useEffect, useState } from 'react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { aUser } from '../../tests/support/builders.ts'
import { mockApi } from '../../tests/support/mock-api.ts'
import { renderApp } from '../../tests/support/render-app.tsx'
import LogoutPage from '../features/auth/logout-page.tsx'
import { userKeys } from '../queries/user.ts'
import {
  forgetPersistedQueries,
  openQueryCacheStore,
  type QueryCacheStore,
  queryCacheStore,
} from '../storage/query-persister.ts'
import { type OfflineCache, type OfflineCacheOptions, startOfflineCache } from './offline-cache.ts'

const ALICE = aUser({ id: 'a1a1a1a1-0000-4000-8000-000000000001', email: 'alice@example.com' })
const BOB = aUser({ id: 'b0b0b0b0-0000-4000-8000-000000000002', email: 'bob@example.com' })
const BUSTER = '1.0.0+abc'
const balancesKey = ['wallets', 'list'] as const

const started: OfflineCache[] = []
afterEach(() => {
  for (const cache of started.splice(0)) cache.stop()
  vi.unstubAllGlobals()
})

const newClient = () =>
  new QueryClient({
    defaultOptions: { queries: { retry: false, gcTime: Number.POSITIVE_INFINITY } },
  })

function start(client: QueryClient, options: OfflineCacheOptions & { store: QueryCacheStore }) {
  const cache = startOfflineCache(client, {
    signedIn: async () => true,
    buster: BUSTER,
    throttleMs: 10,
    ...options,
  })
  started.push(cache)
  return cache
}

/** What a person's earlier visit left on disk: their user and balances, `ageMs` old. */
async function storedVisit(store: QueryCacheStore, user = ALICE, buster = BUSTER, ageMs = 0) {
  const client = newClient()
  client.setQueryData(userKeys.me(), user)
  client.setQueryData(balancesKey, [{ currency: 'BTC', available: '0.5' }])
  const cache = start(client, { store, buster })
  await cache.restored
  await waitFor(async () => expect(await store.persister(user.id).restoreClient()).toBeDefined())
  cache.stop()
  if (ageMs > 0) {
    const persister = store.persister(user.id)
    const snapshot = (await persister.restoreClient())!
    await persister.persistClient({ ...snapshot, timestamp: snapshot.timestamp - ageMs })
    await persister.flush()
  }
}

const storedKeys = async (store: QueryCacheStore, userId: string) =>
  (await store.persister(userId).restoreClient())?.clientState.queries.map((q) => q.queryKey)

const freshStore = () => openQueryCacheStore(`query-cache-${randomUUID()}`)

describe('the query cache on disk', () => {
  it('is on screen before any query asks the network', async () => {
    const store = freshStore()
    await storedVisit(store)
    const client = newClient()
    const cache = start(client, { store })
    const fetchBalances = vi.fn(() => new Promise<never>(() => undefined))

    function Balances() {
      const balances = useQuery({ queryKey: balancesKey, queryFn: fetchBalances })
      return <p>{balances.data ? 'BTC 0.5' : 'loading'}</p>
    }
    function Restoring() {
      const [restoring, setRestoring] = useState(true)
      useEffect(() => void cache.restored.then(() => setRestoring(false)), [])
      return (
        <IsRestoringProvider value={restoring}>
          <Balances />
        </IsRestoringProvider>
      )
    }
    render(
      <QueryClientProvider client={client}>
        <Restoring />
      </QueryClientProvider>,
    )
    expect(screen.getByText('loading')).toBeInTheDocument()
    expect(fetchBalances).not.toHaveBeenCalled()
    expect(await screen.findByText('BTC 0.5')).toBeInTheDocument()
    expect(client.getQueryData(userKeys.me())).toEqual(ALICE)
  })

  it('is shown at once but never taken as fresh: screens ask the server again', async () => {
    const store = freshStore()
    await storedVisit(store)
    const client = new QueryClient({
      defaultOptions: { queries: { retry: false, staleTime: 60_000 } },
    })
    await start(client, { store }).restored
    expect(client.getQueryData(balancesKey)).toEqual([{ currency: 'BTC', available: '0.5' }])
    expect(client.getQueryState(balancesKey)?.isInvalidated).toBe(true)
  })

  it('is dropped when the app version changed', async () => {
    const store = freshStore()
    await storedVisit(store, ALICE, '0.9.0+old')
    const client = newClient()
    await start(client, { store }).restored
    expect(client.getQueryData(balancesKey)).toBeUndefined()
    expect(await store.persister(ALICE.id).restoreClient()).toBeUndefined()
  })

  it('is dropped when older than a week', async () => {
    const store = freshStore()
    await storedVisit(store, ALICE, BUSTER, 8 * 24 * 60 * 60 * 1000)
    const client = newClient()
    await start(client, { store }).restored
    expect(client.getQueryData(balancesKey)).toBeUndefined()
  })

  it('is dropped at start when nobody is signed in', async () => {
    const store = freshStore()
    await storedVisit(store)
    const client = newClient()
    await start(client, { store, signedIn: async () => false }).restored
    expect(client.getQueryData(userKeys.me())).toBeUndefined()
    expect(await store.owner()).toBeUndefined()
    expect(await store.persister(ALICE.id).restoreClient()).toBeUndefined()
  })

  it('holds only successful answers not marked secret', async () => {
    const store = freshStore()
    const client = newClient()
    await start(client, { store }).restored
    client.setQueryData(balancesKey, ['balances'])
    await client.prefetchQuery({
      queryKey: ['cards', 'secret'],
      queryFn: async () => ({ pan: '4111111111111111', cvv: '123' }),
      meta: { persist: false },
    })
    await client.prefetchQuery({
      queryKey: ['failed'],
      queryFn: async () => {
        throw new Error('500')
      },
    })
    void client.prefetchQuery({
      queryKey: ['pending'],
      queryFn: () => new Promise(() => undefined),
    })
    client.setQueryData(userKeys.me(), ALICE)

    await waitFor(async () =>
      expect(await storedKeys(store, ALICE.id)).toEqual(
        expect.arrayContaining([[...balancesKey], [...userKeys.me()]]),
      ),
    )
    const keys = JSON.stringify(await storedKeys(store, ALICE.id))
    expect(keys).not.toContain('secret')
    expect(keys).not.toContain('failed')
    expect(keys).not.toContain('pending')
    expect((await store.persister(ALICE.id).restoreClient())?.clientState.mutations).toEqual([])
  })

  it('never shows one user’s answers to the next, in memory or on disk', async () => {
    const store = freshStore()
    await storedVisit(store, ALICE)
    const client = newClient()
    await start(client, { store }).restored
    expect(client.getQueryData(balancesKey)).toBeDefined()

    // GET /user now names someone else (a new sign-in in this tab).
    client.setQueryData(userKeys.me(), BOB)
    await waitFor(async () => expect(await store.owner()).toBe(BOB.id))
    expect(client.getQueryData(balancesKey)).toBeUndefined()
    expect(await store.persister(ALICE.id).restoreClient()).toBeUndefined()

    client.setQueryData(balancesKey, ['bob’s balances'])
    await waitFor(async () =>
      expect(
        (await store.persister(BOB.id).restoreClient())?.clientState.queries.find(
          (query) => JSON.stringify(query.queryKey) === JSON.stringify(balancesKey),
        )?.state.data,
      ).toEqual(['bob’s balances']),
    )
  })

  it('is forgotten at sign-out, and written again after the next sign-in', async () => {
    const store = queryCacheStore()
    const client = newClient()
    await start(client, { store }).restored
    client.setQueryData(userKeys.me(), ALICE)
    await waitFor(async () => expect(await storedKeys(store, ALICE.id)).toBeDefined())

    client.clear()
    await forgetPersistedQueries()
    client.setQueryData(balancesKey, ['after sign-out'])
    await new Promise((resolve) => setTimeout(resolve, 50))
    expect(await store.persister(ALICE.id).restoreClient()).toBeUndefined()

    client.setQueryData(userKeys.me(), ALICE)
    await waitFor(async () => expect(await storedKeys(store, ALICE.id)).toBeDefined())
    await forgetPersistedQueries()
  })
})

describe('the logout location', () => {
  it('removes the stored cache of the user who leaves', async () => {
    const store = queryCacheStore()
    await store.claim(ALICE.id)
    const persister = store.persister(ALICE.id)
    const snapshot = {
      timestamp: Date.now(),
      buster: BUSTER,
      clientState: { queries: [], mutations: [] },
    }
    await persister.persistClient(snapshot)
    await persister.flush()
    mockApi({})

    const { history } = renderApp(<LogoutPage />, { path: '/auth/logout' })
    await waitFor(() => expect(history.at(-1)).toBe('/auth/sign-in'))
    expect(await persister.restoreClient()).toBeUndefined()
    expect(await store.owner()).toBeUndefined()
  })
})
