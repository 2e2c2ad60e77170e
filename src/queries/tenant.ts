import { type QueryClient, queryOptions, useQuery } from '@tanstack/react-query'
import type { Product, TenantConfig } from '../../contract/tenants.ts'
import { api } from '../net/api.ts'

/**
 * The tenant's configuration (GET /tenants/config): branding, the products it
 * offers, its contacts. Read once per start and kept: it persists with the
 * rest of the cache, so an offline start is branded and trimmed like the last
 * online one. The server answers with an ETag, so asking again is cheap.
 */
export const tenantKeys = {
  all: ['tenant'] as const,
  config: () => [...tenantKeys.all, 'config'] as const,
}

/** An operator's change shows within the hour, or at the next start. */
const TENANT_STALE = 60 * 60 * 1000

export const tenantConfigQuery = () =>
  queryOptions({
    queryKey: tenantKeys.config(),
    queryFn: ({ signal }) => api.v2.get<TenantConfig>('/tenants/config', { signal }),
    staleTime: TENANT_STALE,
  })

/** The configuration, or undefined while unknown (first start offline, or a failed read). */
export function useTenantConfig(): TenantConfig | undefined {
  return useQuery(tenantConfigQuery()).data
}

/**
 * Whether the tenant offers `product`. While the configuration is unknown the
 * answer is yes: hiding everything on a failed read would leave an empty app,
 * and the server refuses a product that is off whatever the app shows.
 */
export function offers(config: TenantConfig | undefined, product: Product): boolean {
  return config?.products[product] ?? true
}

export function useOffers(product: Product): boolean {
  return offers(useTenantConfig(), product)
}

/**
 * Whether the tenant takes customers from `country`. An empty or absent list
 * means every country, and so does an unknown configuration (as `offers`):
 * the server refuses where it must.
 */
export function serves(config: TenantConfig | undefined, country: string): boolean {
  const listed = config?.supported_countries
  return !listed?.length || listed.includes(country)
}

/**
 * Where a finished sign-out goes: the tenant's logout_url when it has one,
 * else undefined (the app's own sign-in screen). Read from the cache, before
 * the sign-out clears it.
 */
export function logoutDestination(queryClient: QueryClient): string | undefined {
  return queryClient.getQueryData<TenantConfig>(tenantKeys.config())?.logout_url ?? undefined
}
