import { randomUUID } from 'node:crypto'
import type { PersistedClient } from '@tanstack/query-persist-client-core'
import { describe, expect, it, onTestFinished, vi } from 'vitest'
import {
  forgetPersistedQueries,
  onPersistedQueriesForgotten,
  openQueryCacheStore,
  queryCacheStore,
} from './query-persister.ts'

const ALICE = 'a1a1a1a1-0000-4000-8000-000000000001'
const BOB = 'b0b0b0b0-0000-4000-8000-000000000002'

/** A store of its own per test: fake-indexeddb lives as long as the test file. */
const freshStore = () => openQueryCacheStore(`query-cache-${randomUUID()}`)

const snapshot = (label: string, overrides: Partial<PersistedClient> = {}): PersistedClient => ({
  timestamp: Date.now(),
  buster: '1.0.0+test',
  clientState: {
    mutations: [],
    queries: [
      {
        queryKey: ['label'],
        queryHash: '["label"]',
        dehydratedAt: Date.now(),
        state: {
          data: label,
          dataUpdateCount: 1,
          dataUpdatedAt: Date.now(),
          error: null,
          errorUpdateCount: 0,
          errorUpdatedAt: 0,
          fetchFailureCount: 0,
          fetchFailureReason: null,
          fetchMeta: null,
          isInvalidated: false,
          status: 'success',
          fetchStatus: 'idle',
        },
      },
    ],
  },
  ...overrides,
})

const labelOf = (client: PersistedClient | undefined) => client?.clientState.queries[0]?.state.data

describe('the IndexedDB query persister', () => {
  it('gives back what it stored, for the same user', async () => {
    const store = freshStore()
    await store.claim(ALICE)
    const persister = store.persister(ALICE)
    const stored = snapshot('balances')
    await persister.persistClient(stored)
    await persister.flush()

    expect(await store.persister(ALICE).restoreClient()).toEqual(stored)
    expect(await store.owner()).toBe(ALICE)
  })

  it('writes at most once per interval, and only the newest snapshot', async () => {
    // The throttle's clock is fake, so "not before 150 ms" is exact whatever the machine's
    // load; fake-indexeddb schedules its work with setImmediate, which stays real.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] })
    onTestFinished(() => {
      vi.useRealTimers()
    })
    const store = freshStore()
    await store.claim(ALICE)
    const persister = store.persister(ALICE, { throttleMs: 150 })
    const read = async () => labelOf(await store.persister(ALICE).restoreClient())
    /** Reads until the write already under way lands; the fake clock stands still meanwhile. */
    const landed = async (label: string) => {
      for (let turn = 0; turn < 1_000 && (await read()) !== label; turn++) {
        await new Promise((resolve) => setImmediate(resolve))
      }
      expect(await read()).toBe(label)
    }

    await persister.persistClient(snapshot('one'))
    await persister.persistClient(snapshot('two'))
    await persister.persistClient(snapshot('three'))
    expect(await read()).toBeUndefined()

    // The first write is due at once, with the newest snapshot.
    await vi.advanceTimersByTimeAsync(0)
    await landed('three')

    // The next one waits for the interval, counted from the first write.
    await persister.persistClient(snapshot('four'))
    await vi.advanceTimersByTimeAsync(149)
    expect(await read()).toBe('three')
    await vi.advanceTimersByTimeAsync(1)
    await landed('four')
  })

  it('keeps users apart: the other user restores nothing, and claiming drops the previous one', async () => {
    const store = freshStore()
    await store.claim(ALICE)
    const alice = store.persister(ALICE)
    await alice.persistClient(snapshot('alice'))
    await alice.flush()

    expect(await store.persister(BOB).restoreClient()).toBeUndefined()

    await store.claim(BOB)
    expect(await store.persister(ALICE).restoreClient()).toBeUndefined()
    expect(await store.owner()).toBe(BOB)
  })

  it('never writes for a user who is not the owner (a tab that missed the sign-out)', async () => {
    const store = freshStore()
    await store.claim(ALICE)
    const alice = store.persister(ALICE)
    await store.claim(BOB)

    await alice.persistClient(snapshot('alice again'))
    await alice.flush()
    expect(await store.persister(ALICE).restoreClient()).toBeUndefined()
  })

  it('removes one user’s snapshot, and a waiting write with it', async () => {
    const store = freshStore()
    await store.claim(ALICE)
    const alice = store.persister(ALICE, { throttleMs: 20 })
    await alice.persistClient(snapshot('first'))
    await alice.flush()
    await alice.persistClient(snapshot('waiting'))
    await alice.removeClient()

    await new Promise((resolve) => setTimeout(resolve, 60))
    expect(await alice.restoreClient()).toBeUndefined()
  })

  it('forgets every snapshot and the owner at sign-out, and tells whoever persists', async () => {
    const store = queryCacheStore()
    await store.claim(ALICE)
    const alice = store.persister(ALICE)
    await alice.persistClient(snapshot('alice'))
    await alice.flush()
    const heard = vi.fn()
    const unsubscribe = onPersistedQueriesForgotten(heard)

    await forgetPersistedQueries()
    unsubscribe()

    expect(heard).toHaveBeenCalledOnce()
    expect(await alice.restoreClient()).toBeUndefined()
    expect(await store.owner()).toBeUndefined()
  })
})
