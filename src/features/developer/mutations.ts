import { useMutation, useQueryClient } from '@tanstack/react-query'
import type {
  ApiKey,
  ApiKeyWithSecret,
  CreateApiKeyBody,
  RotateApiKeyBody,
  UpdateApiKeyBody,
} from '../../../contract/developer.ts'
import { api } from '../../net/api.ts'
import { developerKeys } from './queries.ts'

/*
 * Create and rotate answer a secret. It goes to the page's state, shown once,
 * and never into the query cache (which persists): the list is read again
 * instead. `gcTime: 0` drops the finished mutation, secret and all, as soon
 * as the page lets go of it.
 */

export function useCreateKey() {
  const queryClient = useQueryClient()
  return useMutation({
    gcTime: 0,
    mutationFn: (body: CreateApiKeyBody) =>
      api.v1.post<ApiKeyWithSecret>('/developer/access/create', body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: developerKeys.apiKeys() }),
  })
}

export function useRotateKey() {
  const queryClient = useQueryClient()
  return useMutation({
    gcTime: 0,
    mutationFn: (body: RotateApiKeyBody) =>
      api.v1.post<ApiKeyWithSecret>('/developer/access/rotate', body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: developerKeys.apiKeys() }),
  })
}

export function useUpdateKey() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (body: UpdateApiKeyBody) => api.v1.post<ApiKey>('/developer/access/update', body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: developerKeys.apiKeys() }),
  })
}
