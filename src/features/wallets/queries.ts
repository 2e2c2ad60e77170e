import { infiniteQueryOptions, queryOptions } from '@tanstack/react-query'
import type { ChainId, ChainList, CurrencyList } from '../../../contract/catalog.ts'
import type { RateBase, RateList } from '../../../contract/rates.ts'
import type {
  TransactionList,
  TransactionStatus,
  Wallet,
  WalletAddress,
  WalletList,
  WalletTransaction,
} from '../../../contract/wallets.ts'
import { api } from '../../net/api.ts'

/** The filters of a wallet's history, as the screen holds them (dates are yyyy-mm-dd, local). */
export interface HistoryFilters {
  type?: WalletTransaction['type']
  status?: TransactionStatus
  currency?: string
  from?: string
  to?: string
}

/** Query keys of this feature; mutations invalidate through these, never by literal. */
export const walletKeys = {
  all: ['wallets'] as const,
  list: () => [...walletKeys.all, 'list'] as const,
  detail: (uuid: string) => [...walletKeys.all, 'detail', uuid] as const,
  addresses: (uuid: string, chain: ChainId) =>
    [...walletKeys.detail(uuid), 'addresses', chain] as const,
  history: (uuid: string, filters: HistoryFilters) =>
    [...walletKeys.detail(uuid), 'history', filters] as const,
  transaction: (uuid: string, tx: string) =>
    [...walletKeys.detail(uuid), 'transaction', tx] as const,
  recent: (uuid: string) => [...walletKeys.detail(uuid), 'recent'] as const,
}

export const catalogKeys = {
  all: ['catalog'] as const,
  chains: () => [...catalogKeys.all, 'chains'] as const,
  currencies: () => [...catalogKeys.all, 'currencies'] as const,
}

/** Wallets are few; one page holds them all (MAX_LIMIT). */
const WALLETS_LIMIT = 100
/** Rows per history page: a screenful and then some, well under MAX_LIMIT. */
export const HISTORY_PAGE = 50
/** Catalogues change with a deployment, not while someone looks at them. */
const CATALOG_STALE = 60 * 60 * 1000

const path = (uuid: string) => `/wallets/${encodeURIComponent(uuid)}`

export const walletsQuery = () =>
  queryOptions({
    queryKey: walletKeys.list(),
    queryFn: ({ signal }) =>
      api.v2.get<WalletList>('/wallets', { signal, query: { limit: WALLETS_LIMIT } }),
  })

export const walletQuery = (uuid: string) =>
  queryOptions({
    queryKey: walletKeys.detail(uuid),
    queryFn: ({ signal }) => api.v2.get<Wallet>(path(uuid), { signal }),
  })

export const addressesQuery = (uuid: string, chain: ChainId) =>
  queryOptions({
    queryKey: walletKeys.addresses(uuid, chain),
    queryFn: ({ signal }) =>
      api.v2.get<{ data: WalletAddress[] }>(`${path(uuid)}/addresses/${chain}`, { signal }),
  })

/** The filters as the API (and the CSV export) takes them: dates become local-day bounds. */
export function historyQueryParams(filters: HistoryFilters): Record<string, string | undefined> {
  const dayStart = (day: string) => new Date(`${day}T00:00:00`).toISOString()
  const dayEnd = (day: string) => new Date(`${day}T23:59:59.999`).toISOString()
  return {
    type: filters.type,
    status: filters.status,
    currency: filters.currency,
    from: filters.from ? dayStart(filters.from) : undefined,
    to: filters.to ? dayEnd(filters.to) : undefined,
  }
}

export const historyQuery = (uuid: string, filters: HistoryFilters) =>
  infiniteQueryOptions({
    queryKey: walletKeys.history(uuid, filters),
    queryFn: ({ signal, pageParam }) =>
      api.v2.get<TransactionList>(`${path(uuid)}/transactions`, {
        signal,
        query: { ...historyQueryParams(filters), limit: HISTORY_PAGE, offset: pageParam },
      }),
    initialPageParam: 0,
    getNextPageParam: (last) =>
      last.is_last_page || last.data.length === 0 ? undefined : last.offset + last.data.length,
    // New transactions arrive from outside (a deposit on chain): the newest
    // pages are read again now and then, and often while one is on its way
    // (new → pending → complete). Not with many pages loaded: a refetch reads
    // every loaded page again. Only while the screen is visible (TanStack's default).
    refetchInterval: (query) => {
      const pages = query.state.data?.pages ?? []
      if (pages.length > 2) return false
      return pages.some((page) => page.data.some(unsettled)) ? SETTLING_POLL_MS : ARRIVAL_POLL_MS
    },
  })

const SETTLING_POLL_MS = 3000
const ARRIVAL_POLL_MS = 10_000
const SETTLED: readonly TransactionStatus[] = ['complete', 'canceled', 'failed']
export const unsettled = (tx: WalletTransaction) => !SETTLED.includes(tx.status)

/** How many transactions the home screen shows across all wallets. */
export const RECENT_COUNT = 5

/** A wallet's newest few, for the home screen; re-read like the history. */
export const recentQuery = (uuid: string) =>
  queryOptions({
    queryKey: walletKeys.recent(uuid),
    queryFn: ({ signal }) =>
      api.v2.get<TransactionList>(`${path(uuid)}/transactions`, {
        signal,
        query: { limit: RECENT_COUNT, offset: 0 },
      }),
    refetchInterval: (query) =>
      query.state.data?.data.some(unsettled) ? SETTLING_POLL_MS : ARRIVAL_POLL_MS,
  })

export const transactionQuery = (uuid: string, tx: string) =>
  queryOptions({
    queryKey: walletKeys.transaction(uuid, tx),
    queryFn: ({ signal }) =>
      api.v2.get<WalletTransaction>(`${path(uuid)}/transactions/${encodeURIComponent(tx)}`, {
        signal,
      }),
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

export const rateKeys = {
  all: ['rates'] as const,
  base: (base: RateBase) => [...rateKeys.all, base] as const,
}

/**
 * Rates move by the minute (the server's provider prices once a minute): read
 * again each minute while the screen is shown. Stored like every successful
 * query, so offline the last rates still give a total, with their time shown.
 */
const RATES_FRESH = 60_000

export const ratesQuery = (base: RateBase) =>
  queryOptions({
    queryKey: rateKeys.base(base),
    queryFn: ({ signal }) => api.v2.get<RateList>('/rates', { signal, query: { base } }),
    staleTime: RATES_FRESH,
    refetchInterval: RATES_FRESH,
  })
