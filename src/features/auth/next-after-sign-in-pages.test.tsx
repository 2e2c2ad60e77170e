import { screen, waitFor } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { mockApi } from '../../../tests/support/mock-api.ts'
import { renderApp } from '../../../tests/support/render-app.tsx'
import SignInPage from './sign-in-page.tsx'
import SignUpPage from './sign-up-page.tsx'

const TOKENS = {
  body: { access_token: 'a', refresh_token: 'r', token_type: 'bearer', expires_in: 900 },
}
const REQUEST = '/pay/0190b0a4-0000-7000-8000-00000000ab04'
const NEXT = `?next=${encodeURIComponent(REQUEST)}`

afterEach(() => {
  vi.unstubAllGlobals()
})

describe('a link that sent someone to sign in (a payment request, issue 32)', () => {
  it('brings them back to it after signing up, and keeps it on the way to sign-in', async () => {
    mockApi({ 'POST /auth/sign-up/password/email': { status: 201, ...TOKENS } })
    const { user, history } = renderApp(<SignUpPage />, { path: `/auth/sign-up${NEXT}` })
    expect(screen.getByRole('link', { name: 'Sign in' })).toHaveAttribute(
      'href',
      `/auth/sign-in${NEXT}`,
    )
    await user.type(screen.getByLabelText('Email'), 'new@example.com')
    await user.type(screen.getByLabelText('Password', { exact: true }), 'correct horse battery')
    await user.click(screen.getByRole('checkbox', { name: /^I agree to the Terms of Service/ }))
    await user.click(screen.getByRole('button', { name: 'Create account' }))
    await waitFor(() => expect(history.at(-1)).toBe(REQUEST))
  })

  it('brings them back to it after signing in', async () => {
    mockApi({ 'POST /auth/sign-in/password/email': TOKENS })
    const { user, history } = renderApp(<SignInPage />, { path: `/auth/sign-in${NEXT}` })
    await user.type(screen.getByLabelText('Email'), 'ada@example.com')
    await user.type(screen.getByLabelText('Password', { exact: true }), 'correct horse battery')
    await user.click(screen.getByRole('button', { name: 'Sign in' }))
    await waitFor(() => expect(history.at(-1)).toBe(REQUEST))
  })

  it('goes home for a next that leads off this app', async () => {
    mockApi({ 'POST /auth/sign-in/password/email': TOKENS })
    const { user, history } = renderApp(<SignInPage />, {
      path: `/auth/sign-in?next=${encodeURIComponent('//evil.example/pay')}`,
    })
    await user.type(screen.getByLabelText('Email'), 'ada@example.com')
    await user.type(screen.getByLabelText('Password', { exact: true }), 'correct horse battery')
    await user.click(screen.getByRole('button', { name: 'Sign in' }))
    await waitFor(() => expect(history.at(-1)).toBe('/'))
  })
})
