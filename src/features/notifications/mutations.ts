import { useMutation, useQueryClient } from '@tanstack/react-query'
import { alwaysTold } from '../../../contract/event-kinds.ts'
import type {
  EventKind,
  NotificationList,
  NotificationPreferences,
  UnreadCount,
} from '../../../contract/events.ts'
import { api } from '../../net/api.ts'
import { notificationKeys } from './queries.ts'

/**
 * Marks the notifications named read, or all but the security alerts (they
 * stay unread until opened, as the server keeps them); the list and the bell
 * follow at once.
 */
export function useMarkRead() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (ids?: string[]) =>
      api.v2.post<UnreadCount>('/notifications/read', ids ? { ids } : {}),
    onMutate: (ids) => {
      const now = new Date().toISOString()
      queryClient.setQueryData<NotificationList>(notificationKeys.list(), (list) =>
        list
          ? {
              ...list,
              data: list.data.map((item) =>
                (ids ? ids.includes(item.id) : !alwaysTold(item.kind))
                  ? { ...item, read_at: item.read_at ?? now }
                  : item,
              ),
            }
          : list,
      )
    },
    onSuccess: (count) => {
      queryClient.setQueryData(notificationKeys.unread(), count)
      return queryClient.invalidateQueries({ queryKey: notificationKeys.list() })
    },
  })
}

export function useSavePreferences() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (muted: EventKind[]) =>
      api.v2.put<NotificationPreferences>('/notifications/preferences', { muted }),
    onSuccess: (saved) => queryClient.setQueryData(notificationKeys.preferences(), saved),
  })
}
