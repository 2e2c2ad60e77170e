import {
  persistQueryClientRestore,
  persistQueryClientSave,
  persistQueryClientSubscribe,
} from '@tanstack/query-persist-client-core'
import type { QueryClient } from '@tanstack/react-query'
import type { User } from '../../contract/user.ts'
import { hasSession } from '../net/session.ts'
import { userKeys } from '../queries/user.ts'
import {
  onPersistedQueriesForgotten,
  persistable,
  type QueryCacheStore,
  type QueryPersister,
  queryCacheStore,
} from '../storage/query-persister.ts'

/** A snapshot older than this is not worth showing as "your balances". */
export const CACHE_MAX_AGE = 7 * 24 * 60 * 60 * 1000

/** package.json version + build id (vite.config.ts): a new build never reads an old shape. */
export const APP_VERSION = __APP_VERSION__

export interface OfflineCacheOptions {
  store?: QueryCacheStore
  signedIn?: () => Promise<boolean>
  /** Whose data the cache holds now: the id of the cached GET /user answer. */
  userIdOf?: (queryClient: QueryClient) => string | undefined
  buster?: string
  maxAge?: number
  throttleMs?: number
}

export interface OfflineCache {
  /** Settles once the stored cache (if any) is in memory; never rejects. */
  restored: Promise<void>
  stop(): void
}

const cachedUserId = (queryClient: QueryClient) => queryClient.getQueryData<User>(userKeys.me())?.id

/**
 * Keeps the query cache on disk for the signed-in user (src/storage/query-persister.ts).
 *
 * At start, before any screen asks the network: nobody signed in means nothing
 * stored is kept; otherwise the owner's snapshot is put in memory. From then
 * on the cache is written for the user GET /user names. When that is someone
 * else than the owner, the old user's answers leave memory and disk first.
 */
export function startOfflineCache(
  queryClient: QueryClient,
  options: OfflineCacheOptions = {},
): OfflineCache {
  const store = options.store ?? queryCacheStore()
  const signedIn = options.signedIn ?? hasSession
  const userIdOf = options.userIdOf ?? cachedUserId
  const buster = options.buster ?? APP_VERSION
  const maxAge = options.maxAge ?? CACHE_MAX_AGE

  let active: { userId: string; persister: QueryPersister; unsubscribe: () => void } | undefined
  let switching: string | undefined
  let stopped = false

  const detach = () => {
    active?.unsubscribe()
    active?.persister.cancel()
    active = undefined
  }

  const follow = async (userId: string) => {
    switching = userId
    try {
      const previous = active?.userId ?? (await store.owner())
      detach()
      if (previous !== undefined && previous !== userId) {
        // Someone else signed in: nothing of the previous user stays on screen.
        const me = userKeys.me()
        await queryClient.resetQueries({
          predicate: (query) => JSON.stringify(query.queryKey) !== JSON.stringify(me),
        })
      }
      await store.claim(userId)
      if (stopped || switching !== userId) return
      const persister = store.persister(userId, { throttleMs: options.throttleMs })
      const props = { queryClient, persister, buster, dehydrateOptions: persistable }
      active = { userId, persister, unsubscribe: persistQueryClientSubscribe(props) }
      await persistQueryClientSave(props)
    } finally {
      if (switching === userId) switching = undefined
    }
  }

  const check = () => {
    if (stopped) return
    const userId = userIdOf(queryClient)
    if (userId === undefined || userId === active?.userId || userId === switching) return
    void follow(userId).catch((error: unknown) => console.error('[cache] follow failed', error))
  }

  const restored = (async () => {
    // Both reads at once: a warm start on a slow phone waits for each IndexedDB round.
    const [isSignedIn, owner] = await Promise.all([signedIn(), store.owner()])
    if (!isSignedIn) {
      await store.forget()
      return
    }
    if (owner === undefined) return
    await persistQueryClientRestore({
      queryClient,
      persister: store.persister(owner),
      buster,
      maxAge,
    })
    // What was stored shows at once but never counts as fresh: a snapshot taken
    // seconds ago may predate a deposit, so every screen asks the server again
    // as soon as it is mounted and online.
    await queryClient.invalidateQueries({ refetchType: 'none' })
  })().catch((error: unknown) => console.error('[cache] restore failed', error))

  let unsubscribeCache: (() => void) | undefined
  void restored.then(() => {
    if (stopped) return
    unsubscribeCache = queryClient.getQueryCache().subscribe(check)
    check()
  })

  const unsubscribeForget = onPersistedQueriesForgotten(detach)

  // A snapshot waiting for its turn is written before the page may be discarded.
  const hide = () => {
    if (document.visibilityState === 'hidden') void active?.persister.flush()
  }
  document.addEventListener('visibilitychange', hide)

  return {
    restored,
    stop() {
      stopped = true
      detach()
      unsubscribeCache?.()
      unsubscribeForget()
      document.removeEventListener('visibilitychange', hide)
    },
  }
}
