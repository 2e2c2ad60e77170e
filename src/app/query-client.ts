import { QueryClient } from '@tanstack/react-query'
import { ApiError } from '../net/api.ts'

/** A 4xx will not turn into a 2xx by asking again; network trouble and 5xx might. */
const shouldRetry = (failures: number, error: unknown) =>
  failures < 2 && !(error instanceof ApiError && error.status < 500)

export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: { retry: shouldRetry, staleTime: 30_000, refetchOnWindowFocus: true },
      mutations: { retry: false },
    },
  })
}
