import type { PersistedClient, Persister } from '@tanstack/query-persist-client-core'
import type { Mutation, Query } from '@tanstack/react-query'
import { type DBSchema, type IDBPDatabase, openDB } from 'idb'

/*
 * The query cache on disk, so the app opens offline with what it last knew.
 *
 * Convention: a query whose answer must never reach the disk (card secrets,
 * one-time codes, API keys) says so with `meta: { persist: false }`. Only
 * successful answers are written; pending and failed queries, and every
 * mutation (their variables hold passwords and codes), never are.
 *
 * One snapshot per user, keyed by the user id, plus the "owner": the user the
 * cache belongs to now. A snapshot is written only while its user is the
 * owner, so a tab that missed a sign-out cannot write the old user back.
 */

declare module '@tanstack/react-query' {
  interface Register {
    queryMeta: {
      /** false: this answer is a secret and never leaves memory. */
      persist?: boolean
    } & Record<string, unknown>
  }
}

/** What goes to disk: successful answers not marked secret; no mutation ever. */
export const persistable = {
  shouldDehydrateQuery: (query: Query) =>
    query.state.status === 'success' && query.meta?.persist !== false,
  shouldDehydrateMutation: (_mutation: Mutation) => false,
}

interface CacheSchema extends DBSchema {
  clients: { key: string; value: PersistedClient }
  meta: { key: 'owner'; value: string }
}

const DB_NAME = 'query-cache'

export interface QueryPersister extends Persister {
  /** Writes a snapshot still waiting for its turn now (the page is being hidden). */
  flush(): Promise<void>
  /** Drops a snapshot still waiting, without writing it. */
  cancel(): void
}

export interface QueryCacheStore {
  /** The user the stored cache belongs to, if any. */
  owner(): Promise<string | undefined>
  /** Makes `userId` the owner and deletes every other user's snapshot. */
  claim(userId: string): Promise<void>
  /** Deletes every snapshot and the owner (sign-out, or nobody signed in). */
  forget(): Promise<void>
  /** The persister of one user's snapshot, writing at most once per `throttleMs`. */
  persister(userId: string, options?: { throttleMs?: number }): QueryPersister
}

export function openQueryCacheStore(name = DB_NAME): QueryCacheStore {
  let db: Promise<IDBPDatabase<CacheSchema>> | undefined
  const open = () => {
    db ??= openDB<CacheSchema>(name, 1, {
      upgrade(database) {
        database.createObjectStore('clients')
        database.createObjectStore('meta')
      },
    })
    return db
  }

  return {
    async owner() {
      return (await open()).get('meta', 'owner')
    },

    async claim(userId) {
      const tx = (await open()).transaction(['clients', 'meta'], 'readwrite')
      const clients = tx.objectStore('clients')
      for (const key of await clients.getAllKeys()) {
        if (key !== userId) await clients.delete(key)
      }
      await tx.objectStore('meta').put(userId, 'owner')
      await tx.done
    },

    async forget() {
      const tx = (await open()).transaction(['clients', 'meta'], 'readwrite')
      await Promise.all([
        tx.objectStore('clients').clear(),
        tx.objectStore('meta').clear(),
        tx.done,
      ])
    },

    persister(userId, { throttleMs = 1000 } = {}) {
      let waiting: PersistedClient | undefined
      let timer: ReturnType<typeof setTimeout> | undefined
      let lastWrite = Number.NEGATIVE_INFINITY

      const write = async () => {
        timer = undefined
        const client = waiting
        waiting = undefined
        if (!client) return
        lastWrite = Date.now()
        const tx = (await open()).transaction(['clients', 'meta'], 'readwrite')
        // Read and write in one transaction: a sign-out in between cannot be undone.
        if ((await tx.objectStore('meta').get('owner')) === userId) {
          await tx.objectStore('clients').put(client, userId)
        }
        await tx.done
      }

      const cancel = () => {
        if (timer !== undefined) clearTimeout(timer)
        timer = undefined
        waiting = undefined
      }

      return {
        // Every cache change asks for a write; only the newest snapshot of each
        // interval reaches the disk, at most once per interval.
        async persistClient(client) {
          waiting = client
          if (timer !== undefined) return
          const wait = Math.max(0, lastWrite + throttleMs - Date.now())
          timer = setTimeout(() => {
            void write().catch((error: unknown) => console.error('[cache] write failed', error))
          }, wait)
        },
        async restoreClient() {
          return (await open()).get('clients', userId)
        },
        async removeClient() {
          cancel()
          await (await open()).delete('clients', userId)
        },
        async flush() {
          if (timer !== undefined) clearTimeout(timer)
          await write()
        },
        cancel,
      }
    },
  }
}

/*
 * The app keeps one store open. A sign-out anywhere in the page forgets it
 * through `forgetPersistedQueries`, and whoever persists (src/app) hears it.
 */
let shared: QueryCacheStore | undefined
export const queryCacheStore = () => {
  shared ??= openQueryCacheStore()
  return shared
}

const forgetListeners = new Set<() => void>()

/** Called when the stored cache was forgotten; returns the unsubscribe. */
export function onPersistedQueriesForgotten(listener: () => void): () => void {
  forgetListeners.add(listener)
  return () => forgetListeners.delete(listener)
}

/** Sign-out: nothing of the session stays on this device. */
export async function forgetPersistedQueries(): Promise<void> {
  for (const listener of forgetListeners) listener()
  await queryCacheStore().forget()
}
