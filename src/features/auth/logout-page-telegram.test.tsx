import { useQueryClient } from '@tanstack/react-query'
import { waitFor } from '@testing-library/react'
import { useState } from 'react'
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { mockApi } from '../../../tests/support/mock-api.ts'
import { renderApp } from '../../../tests/support/render-app.tsx'
import { paths } from '../../paths.ts'
import { tenantKeys } from '../../queries/tenant.ts'
import { LAUNCH_PARAMS_KEY } from '../../telegram/launch.ts'
import LogoutPage from './logout-page.tsx'

beforeAll(() => {
  Object.assign(window, { TelegramWebviewProxy: { postEvent() {} } })
  const initData = 'user=%7B%22id%22%3A7%7D&auth_date=1700000000&hash=abc'
  sessionStorage.setItem(
    LAUNCH_PARAMS_KEY,
    JSON.stringify(new URLSearchParams({ tgWebAppData: initData }).toString()),
  )
})

afterEach(() => {
  vi.unstubAllGlobals()
})

/** The logout screen of a tenant that has its own page for after a sign-out. */
function TenantLogout() {
  const queryClient = useQueryClient()
  useState(() =>
    queryClient.setQueryData(tenantKeys.config(), { logout_url: 'https://tenant.example/bye' }),
  )
  return <LogoutPage />
}

describe('LogoutPage in the Telegram Mini App', () => {
  it('goes back to sign-in, never to the tenant’s logout page, so Telegram can sign in again', async () => {
    mockApi({})
    const replace = vi.fn()
    vi.stubGlobal('location', { ...window.location, replace })
    const { history } = renderApp(<TenantLogout />, { path: paths.logout })
    await waitFor(() => expect(history.at(-1)).toBe(paths.signIn))
    expect(replace).not.toHaveBeenCalled()
  })
})
