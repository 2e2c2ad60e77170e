import { queryOptions } from '@tanstack/react-query'
import type {
  NotificationList,
  NotificationPreferences,
  PushConfig,
  UnreadCount,
} from '../../../contract/events.ts'
import { api } from '../../net/api.ts'

/** Query keys of the notification centre; mutations invalidate through these, never by literal. */
export const notificationKeys = {
  all: ['notifications'] as const,
  list: () => [...notificationKeys.all, 'list'] as const,
  unread: () => [...notificationKeys.all, 'unread'] as const,
  preferences: () => [...notificationKeys.all, 'preferences'] as const,
  pushConfig: () => [...notificationKeys.all, 'push-config'] as const,
}

/** The newest notifications: one page of the API's maximum covers weeks of a busy account. */
export const NOTIFICATIONS_PAGE = 50

/**
 * The bell polls the count: events arrive from the server's dispatcher, not
 * from anything the page did. A tab in the background stops polling (TanStack
 * Query's refetchIntervalInBackground is false), and the count is persisted
 * offline like every other query.
 */
export const UNREAD_POLL_MS = 15_000

export const notificationsQuery = () =>
  queryOptions({
    queryKey: notificationKeys.list(),
    queryFn: ({ signal }) =>
      api.v2.get<NotificationList>(`/notifications?limit=${NOTIFICATIONS_PAGE}`, { signal }),
    refetchInterval: UNREAD_POLL_MS,
  })

export const unreadQuery = () =>
  queryOptions({
    queryKey: notificationKeys.unread(),
    queryFn: ({ signal }) => api.v2.get<UnreadCount>('/notifications/unread', { signal }),
    refetchInterval: UNREAD_POLL_MS,
  })

export const preferencesQuery = () =>
  queryOptions({
    queryKey: notificationKeys.preferences(),
    queryFn: ({ signal }) =>
      api.v2.get<NotificationPreferences>('/notifications/preferences', { signal }),
  })

export const pushConfigQuery = () =>
  queryOptions({
    queryKey: notificationKeys.pushConfig(),
    queryFn: ({ signal }) => api.v2.get<PushConfig>('/push/config', { signal }),
    staleTime: Number.POSITIVE_INFINITY,
  })
