import { queryOptions } from '@tanstack/react-query'
import type { ApiKeyList, VendorList } from '../../../contract/developer.ts'
import { api } from '../../net/api.ts'

/** The generated API reference the server renders from its OpenAPI document. */
export const API_DOCS_URL = '/api/docs'

/** Query keys of the developer area; mutations invalidate through these, never by literal. */
export const developerKeys = {
  all: ['developer'] as const,
  apiKeys: () => [...developerKeys.all, 'api-keys'] as const,
  vendors: () => [...developerKeys.all, 'vendors'] as const,
}

/** A person keeps a handful of keys: one page of the API's maximum holds them all. */
const KEYS_LIMIT = 100

/** Names, roles and prefixes only: a key's secret is never in a list, so the list may persist. */
export const apiKeysQuery = () =>
  queryOptions({
    queryKey: developerKeys.apiKeys(),
    queryFn: ({ signal }) =>
      api.v1.get<ApiKeyList>('/developer/access/list', { signal, query: { limit: KEYS_LIMIT } }),
  })

export const vendorsQuery = () =>
  queryOptions({
    queryKey: developerKeys.vendors(),
    queryFn: ({ signal }) => api.v1.get<VendorList>('/developer/vendors/list', { signal }),
    // Health is about now: yesterday's "up" read offline would mislead, so it is never stored.
    meta: { persist: false },
  })
