import { infiniteQueryOptions, queryOptions } from '@tanstack/react-query'
import type { ChainId } from '../../../contract/catalog.ts'
import type {
  TransactionList,
  TransactionStatus,
  WalletAddress,
  WalletTransaction,
} from '../../../contract/wallets.ts'
import { api } from '../../net/api.ts'
import { backingOff } from '../../queries/poll.ts'
import { walletKeys as sharedWalletKeys, walletPath } from '../../queries/wallets.ts'

/** The filters of a wallet's history, as the screen holds them (dates are yyyy-mm-dd, local). */
export interface HistoryFilters {
  type?: WalletTransaction['type']
  status?: TransactionStatus
  currency?: string
  from?: string
  to?: string
}

/** Rows per history page: a screenful and then some, well under MAX_LIMIT. */
export const HISTORY_PAGE = 50

/** Query keys of this feature, under the shared wallet keys; mutations invalidate through these. */
export const walletKeys = {
  ...sharedWalletKeys,
  addresses: (uuid: string, chain: ChainId) =>
    [...sharedWalletKeys.detail(uuid), 'addresses', chain] as const,
  history: (uuid: string, filters: HistoryFilters) =>
    [...sharedWalletKeys.detail(uuid), 'history', filters] as const,
  transaction: (uuid: string, tx: string) =>
    [...sharedWalletKeys.detail(uuid), 'transaction', tx] as const,
  recent: (uuid: string) => [...sharedWalletKeys.detail(uuid), 'recent'] as const,
}

export {
  catalogKeys,
  chainsQuery,
  currenciesQuery,
  rateKeys,
  ratesQuery,
  walletQuery,
  walletsQuery,
} from '../../queries/wallets.ts'

const path = walletPath

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
    // Nothing on its way: each quiet answer waits twice as long, up to 80 s (src/queries/poll.ts).
    refetchInterval: (query) =>
      query.state.data?.data.some(unsettled) ? SETTLING_POLL_MS : arrivals(query),
  })

const arrivals = backingOff(ARRIVAL_POLL_MS)

export const transactionQuery = (uuid: string, tx: string) =>
  queryOptions({
    queryKey: walletKeys.transaction(uuid, tx),
    queryFn: ({ signal }) =>
      api.v2.get<WalletTransaction>(`${path(uuid)}/transactions/${encodeURIComponent(tx)}`, {
        signal,
      }),
  })
