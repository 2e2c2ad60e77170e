import { screen, waitFor } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { mockApi, otpSent, problem } from '../../../tests/support/mock-api.ts'
import { renderApp } from '../../../tests/support/render-app.tsx'
import { signedInBefore } from './mutations.ts'
import SignInPage from './sign-in-page.tsx'

/*
 * Issue 26: a forgotten password, from the sign-in screen — the e-mail, the
 * code sent there, a new password with its strength shown, and home.
 */

const TOKENS = {
  body: { access_token: 'a', refresh_token: 'r', token_type: 'bearer', expires_in: 900 },
}
const STRONG = 'Orbit-Lantern-Maple-42'

afterEach(() => {
  vi.unstubAllGlobals()
  localStorage.clear()
})

describe('resetting a forgotten password', () => {
  it('is offered under the password, and opens on the same screen', async () => {
    mockApi({})
    const { user, history } = renderApp(<SignInPage />, { path: '/auth/sign-in' })
    await user.click(screen.getByRole('link', { name: 'Forgot your password?' }))
    expect(history.at(-1)).toBe('/auth/sign-in?reset=password')
    await screen.findByRole('heading', { name: 'Reset your password' })
    expect(screen.getByRole('tab', { name: 'Email' })).toHaveAttribute('aria-selected', 'true')
  })

  it('e-mail → code → new password → signed in at home', async () => {
    localStorage.clear()
    const api = mockApi({
      'POST /auth/password/reset': { status: 202, ...otpSent() },
      'POST /auth/password/reset/confirm': TOKENS,
    })
    const { user, history } = renderApp(<SignInPage />, {
      path: '/auth/sign-in?reset=password',
    })
    await user.type(screen.getByLabelText('Email'), 'ada@example.com')
    await user.click(screen.getByRole('button', { name: 'Send code' }))

    // It cannot say the code went: only that it did if the account exists.
    await screen.findByText(/If an account signs in with a•••@example\.com/)
    expect(api.to('POST /auth/password/reset')[0]?.body).toEqual({
      email: 'ada@example.com',
      language: 'en',
    })
    await user.type(screen.getByLabelText('6-digit code'), '123456')
    expect(api.to('POST /auth/password/reset/confirm')).toHaveLength(0)

    const password = await screen.findByLabelText('New password')
    await user.type(password, 'ada')
    expect(screen.getByTestId('password-strength')).toHaveTextContent('Too short')
    await user.clear(password)
    await user.type(password, STRONG)
    await user.click(screen.getByRole('button', { name: 'Save and sign in' }))

    await waitFor(() => expect(history.at(-1)).toBe('/'))
    expect(api.to('POST /auth/password/reset/confirm')[0]?.body).toEqual({
      email: 'ada@example.com',
      token: '123456',
      new_password: STRONG,
    })
    // Signed in on this device: the sign-in screen greets it "Welcome back" from now on.
    expect(signedInBefore()).toBe(true)
  })

  it('a wrong code goes back to the code, saying so; the password is asked again after', async () => {
    let answers = 0
    mockApi({
      'POST /auth/password/reset': { status: 202, ...otpSent() },
      'POST /auth/password/reset/confirm': () =>
        answers++ === 0 ? problem(400, 'OTP_INVALID', { attempts_left: 4 }) : TOKENS,
    })
    const { user, history } = renderApp(<SignInPage />, {
      path: '/auth/sign-in?reset=password',
    })
    await user.type(screen.getByLabelText('Email'), 'ada@example.com')
    await user.click(screen.getByRole('button', { name: 'Send code' }))
    await user.type(await screen.findByLabelText('6-digit code'), '111111')
    await user.type(await screen.findByLabelText('New password'), STRONG)
    await user.click(screen.getByRole('button', { name: 'Save and sign in' }))

    await screen.findByText('Wrong code. 4 attempts left.')
    const code = screen.getByLabelText('6-digit code')
    expect(code).toBeVisible()
    await user.type(code, '222222')
    await user.type(await screen.findByLabelText('New password'), STRONG)
    await user.click(screen.getByRole('button', { name: 'Save and sign in' }))
    await waitFor(() => expect(history.at(-1)).toBe('/'))
  })

  it('reads in Russian', async () => {
    mockApi({})
    renderApp(<SignInPage />, { path: '/auth/sign-in?reset=password', language: 'ru' })
    await screen.findByRole('heading', { name: 'Сброс пароля' })
    expect(screen.getByRole('button', { name: 'Получить код' })).toBeInTheDocument()
  })
})
