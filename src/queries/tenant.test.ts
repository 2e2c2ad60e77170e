import { QueryClient } from '@tanstack/react-query'
import { describe, expect, it } from 'vitest'
import type { TenantConfig } from '../../contract/tenants.ts'
import { mockApi } from '../../tests/support/mock-api.ts'
import { persistable } from '../storage/query-persister.ts'
import { logoutDestination, offers, serves, tenantConfigQuery, tenantKeys } from './tenant.ts'

const products = { crypto: true, fiat: false, cards: true, exchange: false, p2p: true }

describe('the tenant’s configuration in the app', () => {
  it('offers what the tenant switched on, and everything while unknown', () => {
    const config = { products } as TenantConfig

    expect(offers(config, 'cards')).toBe(true)
    expect(offers(config, 'fiat')).toBe(false)
    expect(offers(undefined, 'fiat')).toBe(true)
  })

  it.each([
    [['DE', 'GB'], 'GB', true],
    [['DE', 'GB'], 'RU', false],
    [[], 'RU', true],
    [undefined, 'RU', true],
  ])('with supported countries %j, serves %s: %s', (listed, country, expected) => {
    const config = listed && ({ supported_countries: listed } as unknown as TenantConfig)
    expect(serves(config, country)).toBe(expected)
  })

  it('a sign-out ends at the tenant’s logout_url when it has one', () => {
    const queryClient = new QueryClient()
    expect(logoutDestination(queryClient)).toBeUndefined()

    queryClient.setQueryData(tenantKeys.config(), { logout_url: null } as TenantConfig)
    expect(logoutDestination(queryClient)).toBeUndefined()

    queryClient.setQueryData(tenantKeys.config(), {
      logout_url: 'https://acme.example/goodbye',
    } as TenantConfig)
    expect(logoutDestination(queryClient)).toBe('https://acme.example/goodbye')
  })

  it('is read from GET /tenants/config and kept on disk with the cache, for an offline start', async () => {
    const api = mockApi({ 'GET /tenants/config': { body: { name: 'Acme', logout_url: null } } })
    const queryClient = new QueryClient()

    await queryClient.fetchQuery(tenantConfigQuery())

    expect(api.to('GET /tenants/config')).toHaveLength(1)
    const query = queryClient.getQueryCache().find({ queryKey: tenantKeys.config() })!
    expect(persistable.shouldDehydrateQuery(query)).toBe(true)
  })
})
