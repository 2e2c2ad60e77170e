import { type InfiniteData, infiniteQueryOptions, queryOptions } from '@tanstack/react-query'
import type { ApiKey, ApiKeyList, VendorList } from '../../../contract/developer.ts'
import { MAX_LIMIT } from '../../../contract/page-bounds.ts'
import { api } from '../../net/api.ts'
import { nextOffset } from '../../queries/pages.ts'

/** The generated API reference the server renders from its OpenAPI document. */
export const API_DOCS_URL = '/api/docs'

/** Query keys of the developer area; mutations invalidate through these, never by literal. */
export const developerKeys = {
  all: ['developer'] as const,
  apiKeys: () => [...developerKeys.all, 'api-keys'] as const,
  vendors: () => [...developerKeys.all, 'vendors'] as const,
}

/**
 * Keys per page: the API's maximum, so the handful most people keep comes in
 * one read. Disabled keys do not count against the limit of enabled ones, so
 * a list may grow past a page: the rest come on demand.
 */
export const KEYS_PAGE = MAX_LIMIT

/** The keys read so far, each once, and how many there are in all. */
export interface KeysRead {
  keys: ApiKey[]
  total: number
}

/**
 * Pages are read by offset, newest first: a key created elsewhere between two
 * reads pushes the last one of a page onto the next, so a key seen twice is
 * shown once.
 */
export function keysRead(data: InfiniteData<ApiKeyList, number>): KeysRead {
  const byId = new Map<string, ApiKey>()
  for (const page of data.pages) for (const key of page.data) byId.set(key.id, key)
  return { keys: [...byId.values()], total: data.pages.at(-1)?.total ?? 0 }
}

/**
 * Names, roles and prefixes only: a key's secret is never in a list, so the
 * list may persist. A refetch (after a change, or when the page is shown
 * again) reads every loaded page again, so last use stays current on each.
 */
export const apiKeysQuery = () =>
  infiniteQueryOptions({
    queryKey: developerKeys.apiKeys(),
    queryFn: ({ signal, pageParam }) =>
      api.v1.get<ApiKeyList>('/developer/access/list', {
        signal,
        query: { limit: KEYS_PAGE, offset: pageParam },
      }),
    initialPageParam: 0,
    getNextPageParam: nextOffset,
    select: keysRead,
  })

export const vendorsQuery = () =>
  queryOptions({
    queryKey: developerKeys.vendors(),
    queryFn: ({ signal }) => api.v1.get<VendorList>('/developer/vendors/list', { signal }),
    // Health is about now: yesterday's "up" read offline would mislead, so it is never stored.
    meta: { persist: false },
  })
