import { screen, waitFor } from '@testing-library/react'
import { useEffect } from 'react'
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { Route, Switch, useLocation } from 'wouter'
import { mockApi, problem } from '../../../tests/support/mock-api.ts'
import { renderApp } from '../../../tests/support/render-app.tsx'
import { SESSION_USER_KEY } from '../../net/session.ts'
import { paths } from '../../paths.ts'
import { queryCacheStore } from '../../storage/query-persister.ts'
// biome-ignore lint/style/noRestrictedImports: the test plays the auth proxy and an earlier session, which write the vault
import { openTokenVault } from '../../storage/token-vault.ts'
import { LAUNCH_PARAMS_KEY } from '../../telegram/launch.ts'
import { LOOP_GUARD_KEY } from './telegram-loop-guard.ts'
import TelegramSession from './telegram-session.tsx'

/** The launch user of this file: Telegram user 7. */
const INIT_DATA = 'query_id=1&user=%7B%22id%22%3A7%7D&auth_date=1700000000&hash=abc'
const TOKENS = { body: { access_token: 'a', refresh_token: 'r' } }
const vault = openTokenVault()

beforeAll(() => {
  // Telegram's mobile host, and the launch as mockTelegramEnv (and the SDK) keep it for the tab.
  Object.assign(window, { TelegramWebviewProxy: { postEvent() {} } })
  const raw = new URLSearchParams({ tgWebAppData: INIT_DATA, tgWebAppPlatform: 'ios' }).toString()
  sessionStorage.setItem(LAUNCH_PARAMS_KEY, JSON.stringify(raw))
})

afterEach(async () => {
  vi.unstubAllGlobals()
  sessionStorage.removeItem('telegram/sign-in-failed')
  sessionStorage.removeItem(LOOP_GUARD_KEY)
  localStorage.removeItem(SESSION_USER_KEY)
  await vault.clear()
})

/** The proxy (worker or page) gives up on a 401: the logout screen clears up and goes to sign-in. */
function LogoutScreen() {
  const [, navigate] = useLocation()
  useEffect(() => navigate(paths.signIn, { replace: true }), [navigate])
  return <p>Signing out</p>
}

const app = (path = '/') =>
  renderApp(
    <TelegramSession>
      <Switch>
        <Route path={paths.logout}>
          <LogoutScreen />
        </Route>
        <Route>
          <p>The app</p>
        </Route>
      </Switch>
    </TelegramSession>,
    { path },
  )

describe('TelegramSession', () => {
  it('signs in with the launch init data, no form, and shows the app', async () => {
    const api = mockApi({ 'POST /auth/sign-in/telegram': TOKENS })
    app()
    await screen.findByText('The app')
    expect(api.to('POST /auth/sign-in/telegram').map((c) => c.body)).toEqual([
      { init_data: INIT_DATA },
    ])
    expect(screen.queryByLabelText('Email')).not.toBeInTheDocument()
  })

  it('leaves the sign-in screen for home once signed in', async () => {
    mockApi({ 'POST /auth/sign-in/telegram': TOKENS })
    const { history } = app('/auth/sign-in')
    await screen.findByText('The app')
    expect(history.at(-1)).toBe('/')
  })

  it('asks a new Telegram user to agree to the terms, then signs them up', async () => {
    const api = mockApi({
      'POST /auth/sign-in/telegram': problem(404, 'USER_NOT_FOUND'),
      'POST /auth/sign-up/telegram': { status: 201, ...TOKENS },
    })
    const { user } = app()
    await screen.findByRole('heading', { name: 'Welcome to Finplatform' })
    expect(screen.queryByText('The app')).not.toBeInTheDocument()

    await user.click(screen.getByRole('button', { name: 'Open my account' }))
    expect(screen.getByText('Agree to the terms to open your account.')).toBeInTheDocument()
    expect(api.to('POST /auth/sign-up/telegram')).toHaveLength(0)

    await user.click(
      screen.getByLabelText('I agree to the Terms of Service and the Privacy Policy'),
    )
    await user.click(screen.getByRole('button', { name: 'Open my account' }))
    await screen.findByText('The app')
    expect(api.to('POST /auth/sign-up/telegram').map((c) => c.body)).toEqual([
      { init_data: INIT_DATA, terms_accepted: true },
    ])
  })

  it('says so when the sign-in fails, remembers it for the reload, and tries again on request', async () => {
    let answer = problem(401, 'TELEGRAM_INIT_DATA_INVALID')
    const api = mockApi({ 'POST /auth/sign-in/telegram': () => answer })
    const { user } = app()
    await screen.findByRole('heading', { name: 'We could not sign you in with Telegram' })
    expect(sessionStorage.getItem('telegram/sign-in-failed')).toBe('1')

    answer = TOKENS
    await user.click(screen.getByRole('button', { name: 'Try again' }))
    await screen.findByText('The app')
    expect(api.to('POST /auth/sign-in/telegram')).toHaveLength(2)
    expect(sessionStorage.getItem('telegram/sign-in-failed')).toBeNull()
  })

  it('does not try again by itself after a failure made the page reload', async () => {
    sessionStorage.setItem('telegram/sign-in-failed', '1')
    const api = mockApi({ 'POST /auth/sign-in/telegram': TOKENS })
    app('/auth/sign-in')
    await screen.findByRole('heading', { name: 'We could not sign you in with Telegram' })
    await waitFor(() => expect(api.calls).toHaveLength(0))
  })

  it('signs in as the launch user when the stored session is another Telegram user’s, leaving nothing of theirs', async () => {
    await vault.write({ access_token: 'access-of-5', refresh_token: 'refresh-of-5' })
    localStorage.setItem(SESSION_USER_KEY, '5')
    await queryCacheStore().claim('user-of-5')
    const api = mockApi({ 'POST /auth/sign-in/telegram': TOKENS })
    const { queryClient } = app()
    queryClient.setQueryData(['user', 'me'], { id: 'user-of-5' })
    await screen.findByText('The app')
    expect(api.to('POST /auth/sign-in/telegram').map((c) => c.body)).toEqual([
      { init_data: INIT_DATA },
    ])
    expect(await vault.read()).toBeUndefined()
    expect(queryClient.getQueryData(['user', 'me'])).toBeUndefined()
    expect(await queryCacheStore().owner()).toBeUndefined()
    expect(localStorage.getItem(SESSION_USER_KEY)).toBe('7')
  })

  it('signs in when the stored session names no Telegram user', async () => {
    await vault.write({ access_token: 'someones', refresh_token: 'r' })
    const api = mockApi({ 'POST /auth/sign-in/telegram': TOKENS })
    app()
    await screen.findByText('The app')
    expect(api.to('POST /auth/sign-in/telegram')).toHaveLength(1)
    expect(await vault.read()).toBeUndefined()
  })

  it('uses the launch user’s own stored session without signing in (an offline start)', async () => {
    await vault.write({ access_token: 'access-of-7', refresh_token: 'refresh-of-7' })
    localStorage.setItem(SESSION_USER_KEY, '7')
    const api = mockApi({})
    app()
    await screen.findByText('The app')
    expect(api.calls).toHaveLength(0)
    expect(await vault.read()).toEqual({
      access_token: 'access-of-7',
      refresh_token: 'refresh-of-7',
    })
  })

  it('signs in again after one logout soon after signing in', async () => {
    sessionStorage.setItem(
      LOOP_GUARD_KEY,
      JSON.stringify({ signedInAt: Date.now() - 1000, logouts: 0 }),
    )
    const api = mockApi({ 'POST /auth/sign-in/telegram': TOKENS })
    app(paths.logout)
    await screen.findByText('The app')
    expect(api.to('POST /auth/sign-in/telegram')).toHaveLength(1)
  })

  it('stops at a second logout soon after signing in: the retry screen, no sign-in', async () => {
    sessionStorage.setItem(
      LOOP_GUARD_KEY,
      JSON.stringify({ signedInAt: Date.now() - 1000, logouts: 1 }),
    )
    const api = mockApi({ 'POST /auth/sign-in/telegram': TOKENS })
    const { history, user } = app(paths.logout)
    await screen.findByRole('heading', { name: 'We could not sign you in with Telegram' })
    expect(history.at(-1)).toBe(paths.signIn)
    expect(api.calls).toHaveLength(0)

    // By hand it tries again, and the count starts over.
    await user.click(screen.getByRole('button', { name: 'Try again' }))
    await screen.findByText('The app')
    expect(api.to('POST /auth/sign-in/telegram')).toHaveLength(1)
    expect(JSON.parse(sessionStorage.getItem(LOOP_GUARD_KEY)!).logouts).toBe(0)
  })

  it('signs in when sign-up finds the Telegram user already has an account', async () => {
    let signIn = problem(404, 'USER_NOT_FOUND')
    const api = mockApi({
      'POST /auth/sign-in/telegram': () => signIn,
      'POST /auth/sign-up/telegram': () => {
        signIn = TOKENS
        return problem(409, 'TELEGRAM_USER_EXISTS')
      },
    })
    const { user } = app()
    await screen.findByRole('heading', { name: 'Welcome to Finplatform' })
    await user.click(
      screen.getByLabelText('I agree to the Terms of Service and the Privacy Policy'),
    )
    await user.click(screen.getByRole('button', { name: 'Open my account' }))
    await screen.findByText('The app')
    expect(api.to('POST /auth/sign-in/telegram')).toHaveLength(2)
  })

  it('moves focus to the heading of the screen that replaces the spinner', async () => {
    mockApi({ 'POST /auth/sign-in/telegram': problem(404, 'USER_NOT_FOUND') })
    app()
    const heading = await screen.findByRole('heading', { name: 'Welcome to Finplatform' })
    expect(heading).toHaveFocus()
  })
})
