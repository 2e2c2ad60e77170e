import { queryOptions } from '@tanstack/react-query'
import type { User, UserData } from '../../contract/user.ts'
import { api } from '../net/api.ts'

/**
 * The signed-in person and their profile: home greets them, the next steps
 * and the profile read them, and a KYC decision changes them (the verified
 * name). Invalidate through these keys, never by literal.
 */
export const userKeys = {
  all: ['user'] as const,
  me: () => [...userKeys.all, 'me'] as const,
  data: () => [...userKeys.all, 'data'] as const,
}

export const meQuery = () =>
  queryOptions({
    queryKey: userKeys.me(),
    queryFn: ({ signal }) => api.v2.get<User>('/user', { signal }),
  })

export const userDataQuery = () =>
  queryOptions({
    queryKey: userKeys.data(),
    queryFn: ({ signal }) => api.v2.get<UserData>('/user/user-data', { signal }),
  })
