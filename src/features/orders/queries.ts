import { infiniteQueryOptions, keepPreviousData, queryOptions } from '@tanstack/react-query'
import type { ChainId } from '../../../contract/catalog.ts'
import type { CounterpartyList, DestinationList } from '../../../contract/counterparties.ts'
import type { FiatAccountList } from '../../../contract/fiat-accounts.ts'
import type {
  ExchangeDirectionList,
  Order,
  OrderList,
  OrderStatus,
  OrderType,
  Quote,
  QuoteQuery,
} from '../../../contract/orders.ts'
import type { WalletAddressList } from '../../../contract/wallets.ts'
import { ApiError, api } from '../../net/api.ts'
import { nextOffset } from '../../queries/pages.ts'
import { walletPath } from '../../queries/wallets.ts'
import { isDeposit, isFinal } from './labels.ts'

export {
  chainsQuery,
  currenciesQuery,
  walletKeys,
  walletQuery,
  walletsQuery,
} from '../../queries/wallets.ts'

/** The filters of the order history, as the screen holds them. */
export interface OrderFilters {
  wallet?: string
  status?: OrderStatus
  type?: OrderType
}

/**
 * Query keys of this feature; mutations invalidate through these, never by
 * literal. The pickers' reads (counterparties, fiat accounts, addresses) live
 * under `orders` too: other features own those resources and may shape their
 * cache differently, so sharing their keys could mix shapes.
 */
export const orderKeys = {
  all: ['orders'] as const,
  lists: () => [...orderKeys.all, 'list'] as const,
  list: (filters: OrderFilters) => [...orderKeys.lists(), filters] as const,
  detail: (id: string) => [...orderKeys.all, 'detail', id] as const,
  quote: (query: QuoteQuery) => [...orderKeys.all, 'quote', query] as const,
  directions: (from: string, orderType: OrderType) =>
    [...orderKeys.all, 'directions', from, orderType] as const,
  counterparties: (wallet: string) => [...orderKeys.all, 'counterparties', wallet] as const,
  destinations: (wallet: string, counterparty: string) =>
    [...orderKeys.all, 'destinations', wallet, counterparty] as const,
  fiatAccounts: (wallet: string) => [...orderKeys.all, 'fiat-accounts', wallet] as const,
  addresses: (wallet: string, chain: ChainId) =>
    [...orderKeys.all, 'addresses', wallet, chain] as const,
}

/** A deposit waits for a bank transfer (hours, days): asked about less often. */
const DEPOSIT_POLL_MS = 10_000
/** Rows per page of the order history. */
export const ORDERS_PAGE = 20
/** Pickers read everything on one page: people have few counterparties and accounts. */
const PICKER_LIMIT = 100
/** An order on its way is asked about this often while it is on screen. */
export const ORDER_POLL_MS = 2000

/**
 * A firm quote (`GET /orders/calc`). Typing changes the key, so the observer
 * moves to a new query and the one left behind, its signal consumed, is
 * aborted by TanStack: the server never answers a stale amount to the screen.
 * A quote expires (`expires_at`), so it never reaches the disk
 * (`persist: false`), is dropped as soon as nobody shows it (`gcTime: 0`),
 * and is never read again behind the screen's back: refreshing is the
 * screen's decision (useLiveQuote), because on the review step a new quote
 * is a new price the person has not seen.
 */
export const quoteQuery = (query: QuoteQuery) =>
  queryOptions({
    queryKey: orderKeys.quote(query),
    queryFn: ({ signal }) => api.v1.get<Quote>('/orders/calc', { signal, query: { ...query } }),
    meta: { persist: false },
    gcTime: 0,
    staleTime: Number.POSITIVE_INFINITY,
    refetchOnWindowFocus: false,
    refetchOnReconnect: false,
    placeholderData: keepPreviousData,
    retry: (failures, error) => failures < QUOTE_RETRY_DELAYS_MS.length && isTransient(error),
    // A 429 says how long to wait; never sooner than the backoff.
    retryDelay: (failures, error) =>
      Math.max(
        QUOTE_RETRY_DELAYS_MS[failures] ?? QUOTE_RETRY_DELAYS_MS.at(-1)!,
        error instanceof ApiError ? (error.retryAfter ?? 0) * 1000 : 0,
      ),
  })

/**
 * How long a quote waits before asking again after network trouble, a 5xx
 * or a 429: a refusal of the input (4xx) is never asked again by itself.
 */
export const QUOTE_RETRY_DELAYS_MS = [2000, 5000, 15_000]

/** Trouble on the way or at the server, which asking again later may get past. */
export const isTransient = (error: unknown) =>
  !(error instanceof ApiError) || error.status >= 500 || error.status === 429

export const ordersQuery = (filters: OrderFilters) =>
  infiniteQueryOptions({
    queryKey: orderKeys.list(filters),
    queryFn: ({ signal, pageParam }) =>
      api.v1.get<OrderList>('/orders', {
        signal,
        query: {
          wallet_uuid: filters.wallet,
          status: filters.status,
          order_type: filters.type,
          limit: ORDERS_PAGE,
          offset: pageParam,
        },
      }),
    initialPageParam: 0,
    getNextPageParam: nextOffset,
    // Orders on their way change status by themselves: the first page is
    // read again while one of them is unsettled (not with more pages loaded:
    // a refetch reads every loaded page again).
    refetchInterval: (query) => {
      const pages = query.state.data?.pages ?? []
      if (pages.length !== 1) return false
      const unsettled = pages[0]!.data.filter((order) => !isFinal(order.status))
      if (unsettled.length === 0) return false
      // Deposits alone wait for a bank transfer, for days: no need to ask every few seconds.
      return unsettled.every((order) => isDeposit(order.order_type))
        ? DEPOSIT_POLL_MS
        : ORDER_POLL_MS * 2
    },
  })

/** One order; asked again while it is on screen until its status is final. */
export const orderQuery = (id: string) =>
  queryOptions({
    queryKey: orderKeys.detail(id),
    queryFn: ({ signal }) => api.v1.get<Order>(`/orders/${encodeURIComponent(id)}`, { signal }),
    refetchInterval: (query) => {
      const order = query.state.data
      if (!order) return ORDER_POLL_MS
      if (isFinal(order.status)) return false
      return isDeposit(order.order_type) ? DEPOSIT_POLL_MS : ORDER_POLL_MS
    },
  })

/** Where money in `from` can go by `orderType`, with indicative rates and limits (`GET /exchange/`). */
export const directionsQuery = (from: string, orderType: OrderType) =>
  queryOptions({
    queryKey: orderKeys.directions(from, orderType),
    queryFn: ({ signal }) =>
      api.v1.get<ExchangeDirectionList>('/exchange/', {
        signal,
        query: { from_uuid: from, order_type: orderType },
      }),
    staleTime: 60_000,
  })

export const counterpartiesQuery = (wallet: string) =>
  queryOptions({
    queryKey: orderKeys.counterparties(wallet),
    queryFn: ({ signal }) =>
      api.v2.get<CounterpartyList>(`/counterparties/${encodeURIComponent(wallet)}`, {
        signal,
        query: { limit: PICKER_LIMIT },
      }),
    // The counterparty book edits these under its own keys: read again on every visit.
    staleTime: 0,
  })

export const destinationsQuery = (wallet: string, counterparty: string) =>
  queryOptions({
    queryKey: orderKeys.destinations(wallet, counterparty),
    queryFn: ({ signal }) =>
      api.v2.get<DestinationList>(
        `/counterparties/${encodeURIComponent(wallet)}/${encodeURIComponent(counterparty)}/destinations`,
        { signal, query: { limit: PICKER_LIMIT } },
      ),
    staleTime: 0,
  })

export const fiatAccountsQuery = (wallet: string) =>
  queryOptions({
    queryKey: orderKeys.fiatAccounts(wallet),
    queryFn: ({ signal }) =>
      // With their cards: a stand-alone card's account is named after the card (accountName).
      api.v2.get<FiatAccountList>(`/fiat-accounts/${encodeURIComponent(wallet)}`, {
        signal,
        query: { limit: PICKER_LIMIT, show_cards: true },
      }),
  })

export const addressesQuery = (wallet: string, chain: ChainId) =>
  queryOptions({
    queryKey: orderKeys.addresses(wallet, chain),
    queryFn: ({ signal }) =>
      api.v2.get<WalletAddressList>(`${walletPath(wallet)}/addresses/${chain}`, { signal }),
  })
