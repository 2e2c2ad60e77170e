import { infiniteQueryOptions, queryOptions } from '@tanstack/react-query'
import type {
  ActivityDetail,
  ActivityItem,
  ActivityPage,
  ActivityQuery,
  ActivityStatus,
} from '../../contract/activity.ts'
import { api } from '../net/api.ts'

/**
 * The person's activity feed (GET /activity) and one item of it
 * (GET /activity/{id}). Shared: home, a wallet's page and a card's page all
 * show the feed, narrowed, and features never import one another.
 */

/** What a feed is narrowed to, as the API takes it; the key holds it, so each feed caches apart. */
export type ActivityFilters = Omit<ActivityQuery, 'limit' | 'cursor'>

/** Query keys of the feed; money moving invalidates `all` (queries/money-moved.ts). */
export const activityKeys = {
  all: ['activity'] as const,
  feeds: () => [...activityKeys.all, 'feed'] as const,
  feed: (filters: ActivityFilters) => [...activityKeys.feeds(), filters] as const,
  recent: (filters: ActivityFilters, count: number) =>
    [...activityKeys.all, 'recent', filters, count] as const,
  detail: (id: string) => [...activityKeys.all, 'detail', id] as const,
}

/** Items per page: a screenful and then some. */
export const ACTIVITY_PAGE = 30

/** How often a feed with something under way is read again, and one without. */
export const SETTLING_POLL_MS = 3000
export const ARRIVAL_POLL_MS = 15_000

const SETTLED: readonly ActivityStatus[] = [
  'complete',
  'failed',
  'canceled',
  'declined',
  'reversed',
  'refunded',
]
/** Still moving: a pending order, a confirming deposit, an authorised card payment. */
export const unsettled = (item: Pick<ActivityItem, 'status'>) => !SETTLED.includes(item.status)

/**
 * Only the filters that are set: `{ type: undefined }` and `{}` are one feed
 * (one cache entry), and the key never holds an empty search.
 */
export function feedFilters(filters: ActivityFilters): ActivityFilters {
  const set = Object.entries(filters).filter(([, value]) => value !== undefined && value !== '')
  return Object.fromEntries(set) as ActivityFilters
}

const read = (
  filters: ActivityFilters,
  limit: number,
  cursor: string | undefined,
  signal: AbortSignal,
) => api.v2.get<ActivityPage>('/activity', { signal, query: { ...filters, limit, cursor } })

/**
 * The feed, page after page, by the server's keyset cursor: `fetchNextPage`
 * asks for the items after the last one shown, so items arriving meanwhile
 * never shift a page (they appear on the next read from the top). Read again
 * every few seconds while the first page holds something under way, now and
 * then otherwise — not with many pages loaded (a refetch reads them all).
 */
export const activityFeedQuery = (filters: ActivityFilters = {}) => {
  const narrowed = feedFilters(filters)
  return infiniteQueryOptions({
    queryKey: activityKeys.feed(narrowed),
    queryFn: ({ signal, pageParam }) => read(narrowed, ACTIVITY_PAGE, pageParam, signal),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.next_cursor ?? undefined,
    refetchInterval: (query) => {
      const pages = query.state.data?.pages ?? []
      if (pages.length > 2) return false
      return pages[0]?.data.some(unsettled) ? SETTLING_POLL_MS : ARRIVAL_POLL_MS
    },
  })
}

/** The newest few items (home's "what happened"), one page of `count`. */
export const recentActivityQuery = (filters: ActivityFilters = {}, count = 5) => {
  const narrowed = feedFilters(filters)
  return queryOptions({
    queryKey: activityKeys.recent(narrowed, count),
    queryFn: ({ signal }) => read(narrowed, count, undefined, signal),
    refetchInterval: (query) =>
      query.state.data?.data.some(unsettled) ? SETTLING_POLL_MS : ARRIVAL_POLL_MS,
  })
}

/** One item with its timeline and ledger records; read again while it is under way. */
export const activityQuery = (id: string) =>
  queryOptions({
    queryKey: activityKeys.detail(id),
    queryFn: ({ signal }) =>
      api.v2.get<ActivityDetail>(`/activity/${encodeURIComponent(id)}`, { signal }),
    refetchInterval: (query) =>
      query.state.data && unsettled(query.state.data) ? SETTLING_POLL_MS : false,
  })
