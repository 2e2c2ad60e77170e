import { QueryClient } from '@tanstack/react-query'
import { render, screen } from '@testing-library/react'
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { mockApi } from '../../tests/support/mock-api.ts'
import { SESSION_USER_KEY } from '../net/session.ts'
// biome-ignore lint/style/noRestrictedImports: the test plays the auth proxy and an earlier session, which write the vault
import { openTokenVault } from '../storage/token-vault.ts'
import { LAUNCH_PARAMS_KEY } from '../telegram/launch.ts'
import { App } from './app.tsx'

const INIT_DATA = 'user=%7B%22id%22%3A7%7D&auth_date=1700000000&hash=abc'

beforeAll(() => {
  Object.assign(window, { TelegramWebviewProxy: { postEvent() {} } })
  sessionStorage.setItem(
    LAUNCH_PARAMS_KEY,
    JSON.stringify(new URLSearchParams({ tgWebAppData: INIT_DATA }).toString()),
  )
})

afterEach(async () => {
  vi.unstubAllGlobals()
  localStorage.removeItem(SESSION_USER_KEY)
  await openTokenVault().clear()
})

describe('the app in Telegram when the SDK did not start', () => {
  it('is still the Mini App: it signs in with Telegram and offers no sign-out', async () => {
    const tokens = { access_token: 'a', refresh_token: 'r' }
    const api = mockApi({
      // As the auth proxy does on the way back.
      'POST /auth/sign-in/telegram': async () => {
        await openTokenVault().write(tokens)
        return { body: tokens }
      },
    })
    const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } })
    // No `miniApp`: the SDK chunk failed to load, or startMiniApp threw.
    render(<App queryClient={queryClient} restored={Promise.resolve()} language="en" />)
    await vi.waitFor(() => expect(api.to('POST /auth/sign-in/telegram')).toHaveLength(1))
    expect(api.to('POST /auth/sign-in/telegram')[0]!.body).toEqual({ init_data: INIT_DATA })
    // Signed in: the navigation shows, without a way to sign out of Telegram's identity.
    await screen.findByRole('link', { name: 'Profile' })
    expect(screen.queryByRole('link', { name: 'Sign out' })).toBeNull()
    expect(screen.queryByLabelText('Email')).toBeNull()
  })
})
