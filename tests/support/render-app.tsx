import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { render } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import type { ReactNode } from 'react'
import { vi } from 'vitest'
import { Router } from 'wouter'
import { memoryLocation } from 'wouter/memory-location'
import { I18nProvider, type Language } from '../../src/i18n/i18n.tsx'

/**
 * Renders a piece of the app as the app does: a fresh query cache (no
 * retries, so a failure shows at once), the catalogue of `language`, and a
 * router whose location the test can read.
 */
export function renderApp(
  ui: ReactNode,
  options: { language?: Language; path?: string; timers?: 'fake' } = {},
) {
  const queryClient = new QueryClient({
    defaultOptions: { queries: { retry: false }, mutations: { retry: false } },
  })
  const location = memoryLocation({ path: options.path ?? '/', record: true })
  const user = userEvent.setup(
    options.timers === 'fake' ? { advanceTimers: (ms) => vi.advanceTimersByTime(ms) } : {},
  )
  const result = render(
    <QueryClientProvider client={queryClient}>
      <I18nProvider initial={options.language ?? 'en'}>
        <Router hook={location.hook}>{ui}</Router>
      </I18nProvider>
    </QueryClientProvider>,
  )
  return { ...result, user, queryClient, history: location.history! }
}
