import { queryOptions, useQuery } from '@tanstack/react-query'
import { useCallback } from 'react'
import type { ChainList, CurrencyList } from '../../contract/catalog.ts'
import type { RateBase, RateList } from '../../contract/rates.ts'
import type { Wallet, WalletList } from '../../contract/wallets.ts'
import { api } from '../net/api.ts'

/**
 * Reads several features share: the person's wallets, the catalogues and the
 * rates. Features never import one another (docs/architecture.md), so what more than one
 * of them shows lives here, with one key per thing so the cache is shared.
 */

/** Query keys of wallets; mutations invalidate through these, never by literal. */
export const walletKeys = {
  all: ['wallets'] as const,
  list: () => [...walletKeys.all, 'list'] as const,
  detail: (uuid: string) => [...walletKeys.all, 'detail', uuid] as const,
}

export const catalogKeys = {
  all: ['catalog'] as const,
  chains: () => [...catalogKeys.all, 'chains'] as const,
  currencies: () => [...catalogKeys.all, 'currencies'] as const,
}

/** Wallets are few; one page holds them all (MAX_LIMIT). */
const WALLETS_LIMIT = 100
/** Catalogues change with a deployment, not while someone looks at them. */
const CATALOG_STALE = 60 * 60 * 1000

export const walletPath = (uuid: string) => `/wallets/${encodeURIComponent(uuid)}`

export const walletsQuery = () =>
  queryOptions({
    queryKey: walletKeys.list(),
    queryFn: ({ signal }) =>
      api.v2.get<WalletList>('/wallets', { signal, query: { limit: WALLETS_LIMIT } }),
  })

export const walletQuery = (uuid: string) =>
  queryOptions({
    queryKey: walletKeys.detail(uuid),
    queryFn: ({ signal }) => api.v2.get<Wallet>(walletPath(uuid), { signal }),
  })

export const chainsQuery = () =>
  queryOptions({
    queryKey: catalogKeys.chains(),
    queryFn: ({ signal }) => api.v2.get<ChainList>('/chains', { signal }),
    staleTime: CATALOG_STALE,
  })

export const currenciesQuery = () =>
  queryOptions({
    queryKey: catalogKeys.currencies(),
    queryFn: ({ signal }) => api.v2.get<CurrencyList>('/currencies', { signal }),
    staleTime: CATALOG_STALE,
  })

/**
 * A chain's name as people know it ("Ethereum", "Tron") from the catalogue;
 * the id until the catalogue is in (it is kept on the device, so rarely).
 */
export function useChainName(): (id: string | null) => string | undefined {
  const chains = useQuery(chainsQuery())
  const list = chains.data?.data
  return useCallback(
    (id: string | null) => (id ? (list?.find((chain) => chain.id === id)?.name ?? id) : undefined),
    [list],
  )
}

/**
 * The one base the app asks for rates in. Every display currency is worked
 * out from it (src/queries/display-value.ts: an amount in USD over the
 * currency's own USD rate), so a first visit asks once, before anyone knows
 * the person's currency, and the currency picker works offline. USD: what the
 * server prices quotes in.
 */
export const RATES_BASE: RateBase = 'USD'

export const rateKeys = {
  all: ['rates'] as const,
  list: () => [...rateKeys.all, RATES_BASE] as const,
}

/**
 * Rates move by the minute (the server's provider prices once a minute): read
 * again each minute while the screen is shown. Stored like every successful
 * query, so offline the last rates still give a total, with their time shown.
 */
const RATES_FRESH = 60_000

export const ratesQuery = () =>
  queryOptions({
    queryKey: rateKeys.list(),
    queryFn: ({ signal }) =>
      api.v2.get<RateList>('/rates', { signal, query: { base: RATES_BASE } }),
    staleTime: RATES_FRESH,
    refetchInterval: RATES_FRESH,
  })
