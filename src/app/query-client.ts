import { QueryClient } from '@tanstack/react-query'
import { ApiError } from '../net/api.ts'
import { followBrowserConnection } from '../ui/online.tsx'

/** A 4xx will not turn into a 2xx by asking again; network trouble and 5xx might. */
const shouldRetry = (failures: number, error: unknown) =>
  failures < 2 && !(error instanceof ApiError && error.status < 500)

export function createQueryClient(): QueryClient {
  followBrowserConnection()
  return new QueryClient({
    defaultOptions: {
      queries: {
        retry: shouldRetry,
        staleTime: 30_000,
        refetchOnWindowFocus: true,
        // Offline, a query waits ("paused") instead of failing: the answer
        // restored from disk stays on screen, no error replaces it, and it
        // refreshes by itself once the connection is back. A query with
        // nothing stored says so (src/ui/online.tsx) instead of spinning.
        networkMode: 'online',
      },
      mutations: {
        retry: false,
        // A write is never queued to run later behind the person's back: it
        // fails at once, worded "you are offline". Screens disable such
        // actions while offline anyway (useOnline).
        networkMode: 'always',
      },
    },
  })
}
