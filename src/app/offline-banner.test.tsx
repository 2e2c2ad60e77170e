import { onlineManager, QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { act, render, screen } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { I18nProvider, type Language } from '../i18n/i18n.tsx'
import { relativeTime } from './offline-notice.tsx'
import { OfflineBanner, ScreenShown } from './pwa.tsx'

const MINUTE = 60_000

afterEach(() => {
  act(() => onlineManager.setOnline(true))
  vi.useRealTimers()
})

function renderBanner(language: Language, updatedAgo?: number, screen = true) {
  const client = new QueryClient()
  if (updatedAgo !== undefined) {
    client.setQueryData(['user', 'me'], { id: 'u' }, { updatedAt: Date.now() - updatedAgo })
    client.setQueryData(['countries'], [], { updatedAt: Date.now() - 3 * 60 * MINUTE })
  }
  const view = (withScreen: boolean) => (
    <QueryClientProvider client={client}>
      <I18nProvider initial={language}>
        <OfflineBanner />
        {withScreen && <ScreenShown />}
      </I18nProvider>
    </QueryClientProvider>
  )
  const { rerender } = render(view(screen))
  return { showScreen: () => rerender(view(true)) }
}

describe('the offline banner', () => {
  // First in the file: whether a screen was shown is the page's state, kept for its life.
  it('waits until the first screen is on screen, so an offline start paints the balances first', async () => {
    const { showScreen } = renderBanner('en', 5 * MINUTE, false)
    act(() => onlineManager.setOnline(false))
    await act(() => new Promise((resolve) => setTimeout(resolve, 50)))
    expect(screen.queryByRole('status')).toBeNull()
    showScreen()
    expect(await screen.findByText('Offline · updated 5 minutes ago')).toBeVisible()
  })

  it('is not there while online', () => {
    renderBanner('en', 5 * MINUTE)
    expect(screen.queryByRole('status')).toBeNull()
  })

  it('says how old the newest answer on screen is, and keeps counting', async () => {
    vi.useFakeTimers({ toFake: ['Date', 'setInterval', 'clearInterval'] })
    renderBanner('en', 5 * MINUTE)
    act(() => onlineManager.setOnline(false))
    // The notice is a chunk of its own, loaded when the connection first drops.
    expect(await screen.findByText('Offline · updated 5 minutes ago')).toBeVisible()
    // Heard once, as a moment, not re-announced every minute.
    expect(screen.getByRole('status')).toHaveTextContent('You are offline. Last updated:')

    act(() => vi.advanceTimersByTime(2 * MINUTE))
    expect(screen.getByText('Offline · updated 7 minutes ago')).toBeVisible()
  })

  it('speaks Russian', async () => {
    renderBanner('ru', 5 * MINUTE)
    act(() => onlineManager.setOnline(false))
    expect(await screen.findByText('Нет сети · обновлено 5 минут назад')).toBeVisible()
  })

  it('says only "offline" when nothing is stored', async () => {
    renderBanner('en')
    act(() => onlineManager.setOnline(false))
    expect(await screen.findByRole('status')).toHaveTextContent(
      'You are offline. What you see may be out of date.',
    )
  })
})

describe('relativeTime', () => {
  const now = Date.parse('2026-06-01T12:00:00Z')
  it.each([
    [20_000, 'en', 'now'],
    [MINUTE, 'en', '1 minute ago'],
    [90 * MINUTE, 'en', '1 hour ago'],
    [26 * 60 * MINUTE, 'en', 'yesterday'],
    [3 * 24 * 60 * MINUTE, 'ru', '3 дня назад'],
    [2 * MINUTE, 'ru', '2 минуты назад'],
  ])('%i ms ago in %s reads "%s"', (ago, language, text) => {
    expect(relativeTime(now - ago, now, language)).toBe(text)
  })
})
