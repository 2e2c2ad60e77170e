import { infiniteQueryOptions, queryOptions } from '@tanstack/react-query'
import type {
  Counterparty,
  CounterpartyList,
  CounterpartyType,
  DestinationList,
} from '../../../contract/counterparties.ts'
import { api } from '../../net/api.ts'
import { nextOffset } from '../../queries/pages.ts'

/** The list's filters as the screen holds them; `search` is already trimmed and debounced. */
export interface CounterpartyFilters {
  type?: CounterpartyType
  search?: string
}

/**
 * Query keys of the counterparty book, all under the wallet they belong to;
 * mutations invalidate through these, never by literal.
 */
export const counterpartyKeys = {
  all: ['counterparties'] as const,
  wallet: (wallet: string) => [...counterpartyKeys.all, wallet] as const,
  lists: (wallet: string) => [...counterpartyKeys.wallet(wallet), 'list'] as const,
  list: (wallet: string, filters: CounterpartyFilters) =>
    [...counterpartyKeys.lists(wallet), filters] as const,
  detail: (wallet: string, id: string) =>
    [...counterpartyKeys.wallet(wallet), 'detail', id] as const,
  destinations: (wallet: string, id: string) =>
    [...counterpartyKeys.detail(wallet, id), 'destinations'] as const,
}

/** Rows per page of the list: a screenful, then "Show more". */
export const COUNTERPARTIES_PAGE = 20
/**
 * A counterparty has a handful of destinations (one per rail, a few
 * addresses): one page of MAX_LIMIT holds them all.
 */
const DESTINATIONS_LIMIT = 100

const segment = encodeURIComponent
export const counterpartiesPath = (wallet: string) => `/counterparties/${segment(wallet)}`
export const counterpartyPath = (wallet: string, id: string) =>
  `${counterpartiesPath(wallet)}/${segment(id)}`
export const destinationsPath = (wallet: string, id: string) =>
  `${counterpartyPath(wallet, id)}/destinations`
export const destinationPath = (wallet: string, id: string, destination: string) =>
  `${destinationsPath(wallet, id)}/${segment(destination)}`

export const counterpartiesQuery = (wallet: string, filters: CounterpartyFilters) =>
  infiniteQueryOptions({
    queryKey: counterpartyKeys.list(wallet, filters),
    queryFn: ({ signal, pageParam }) =>
      api.v2.get<CounterpartyList>(counterpartiesPath(wallet), {
        signal,
        query: { ...filters, limit: COUNTERPARTIES_PAGE, offset: pageParam },
      }),
    initialPageParam: 0,
    getNextPageParam: nextOffset,
  })

export const counterpartyQuery = (wallet: string, id: string) =>
  queryOptions({
    queryKey: counterpartyKeys.detail(wallet, id),
    queryFn: ({ signal }) => api.v2.get<Counterparty>(counterpartyPath(wallet, id), { signal }),
  })

export const destinationsQuery = (wallet: string, id: string) =>
  queryOptions({
    queryKey: counterpartyKeys.destinations(wallet, id),
    queryFn: ({ signal }) =>
      api.v2.get<DestinationList>(destinationsPath(wallet, id), {
        signal,
        query: { limit: DESTINATIONS_LIMIT },
      }),
  })
