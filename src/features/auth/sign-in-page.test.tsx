import { onlineManager } from '@tanstack/react-query'
import { act, screen, waitFor, within } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { COUNTRIES, mockApi, otpSent, problem } from '../../../tests/support/mock-api.ts'
import { renderApp } from '../../../tests/support/render-app.tsx'
import { markSignedIn } from './mutations.ts'
import SignInPage from './sign-in-page.tsx'

const TOKENS = {
  body: { access_token: 'a', refresh_token: 'r', token_type: 'bearer', expires_in: 900 },
}

afterEach(() => {
  vi.unstubAllGlobals()
})

describe('the sign-in screen', () => {
  it('greets a first visit as one, and a device someone signed in on as a return', () => {
    mockApi({})
    localStorage.clear()
    const first = renderApp(<SignInPage />, { path: '/auth/sign-in' })
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('Welcome')
    expect(screen.queryByText('Welcome back')).toBeNull()
    expect(screen.getByText('Sign in, or create an account: it takes a minute.')).toBeVisible()
    first.unmount()
    markSignedIn()
    renderApp(<SignInPage />, { path: '/auth/sign-in' })
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('Welcome back')
    localStorage.clear()
  })

  it('opens on e-mail and password, with the labels the other screens use', () => {
    mockApi({})
    renderApp(<SignInPage />, { path: '/auth/sign-in' })
    expect(screen.getByRole('tab', { name: 'Password' })).toHaveAttribute('aria-selected', 'true')
    const panel = screen.getByRole('tabpanel', { name: 'Sign in with a password' })
    expect(within(panel).getByLabelText('Email')).toBeInTheDocument()
    expect(within(panel).getByLabelText('Password')).toBeInTheDocument()
    expect(within(panel).getByRole('button', { name: 'Sign in' })).toBeInTheDocument()
  })

  it('signs in with a code sent by e-mail and goes home', async () => {
    const api = mockApi({
      'POST /auth/sign-in/omni/email/otp': otpSent(),
      'POST /auth/verify/email/otp': TOKENS,
    })
    const { user, history } = renderApp(<SignInPage />, { path: '/auth/sign-in' })
    await user.click(screen.getByRole('tab', { name: 'Email code' }))
    await user.type(screen.getByLabelText('Email'), ' ada@example.com ')
    await user.click(screen.getByRole('button', { name: 'Send code' }))

    const code = await screen.findByLabelText('6-digit code')
    expect(code).toHaveFocus()
    expect(screen.getByText(/a•••@example\.com/)).toBeInTheDocument()
    expect(api.to('POST /auth/sign-in/omni/email/otp')[0]?.body).toEqual({
      email: 'ada@example.com',
      language: 'en',
    })

    await user.type(code, '123456')
    await waitFor(() => expect(history.at(-1)).toBe('/'))
    expect(api.to('POST /auth/verify/email/otp')[0]?.body).toEqual({
      email: 'ada@example.com',
      token: '123456',
      type: 'email',
    })
  })

  it('sends the whole international number from the country and the national number', async () => {
    const api = mockApi({
      'GET /location/countries': COUNTRIES,
      'POST /auth/sign-in/omni/phone/otp': otpSent({ channel: 'sms', destination: '•••••••4567' }),
      'POST /auth/verify/phone/otp': TOKENS,
    })
    const { user, history } = renderApp(<SignInPage />, { path: '/auth/sign-in' })
    await user.click(screen.getByRole('tab', { name: 'Phone code' }))

    const country = screen.getByRole('combobox', { name: 'Country code' })
    await waitFor(() => expect(country).toBeEnabled())
    // Named in the person's language, with the flag and the calling code.
    expect(within(country).getByRole('option', { name: '🇬🇧 United Kingdom +44' })).toBeTruthy()
    await user.selectOptions(country, 'GB:44')
    await user.type(screen.getByLabelText('Phone number'), '07911 123456')
    await user.click(screen.getByRole('button', { name: 'Send code' }))

    await screen.findByLabelText('6-digit code')
    expect(api.to('POST /auth/sign-in/omni/phone/otp')[0]?.body).toEqual({
      phone: '+447911123456',
      language: 'en',
    })
    await user.type(screen.getByLabelText('6-digit code'), '654321')
    await waitFor(() => expect(history.at(-1)).toBe('/'))
    expect(api.to('POST /auth/verify/phone/otp')[0]?.body).toEqual({
      phone: '+447911123456',
      token: '654321',
      type: 'sms',
    })
  })

  it('shows a refused number at the phone field and a wrong code in words', async () => {
    let attempts = 0
    mockApi({
      'GET /location/countries': COUNTRIES,
      'POST /auth/sign-in/omni/phone/otp': (call) =>
        (call.body as { phone: string }).phone === '+11234'
          ? problem(422, 'VALIDATION_FAILED', {
              errors: [{ field: '/body/phone', message: 'is not a phone number' }],
            })
          : otpSent({ channel: 'sms' }),
      'POST /auth/verify/phone/otp': () => {
        attempts++
        return problem(400, 'OTP_INVALID', { attempts_left: 5 - attempts })
      },
    })
    const { user } = renderApp(<SignInPage />, { path: '/auth/sign-in' })
    await user.click(screen.getByRole('tab', { name: 'Phone code' }))
    await waitFor(() =>
      expect(screen.getByRole('combobox', { name: 'Country code' })).toBeEnabled(),
    )
    await user.selectOptions(screen.getByRole('combobox', { name: 'Country code' }), 'US:1')
    await user.type(screen.getByLabelText('Phone number'), '1234')
    await user.click(screen.getByRole('button', { name: 'Send code' }))

    expect(await screen.findByRole('alert')).toHaveTextContent('Some fields need another look.')
    expect(screen.getByLabelText('Phone number')).toHaveAccessibleDescription(
      expect.stringContaining('This does not look like a phone number.'),
    )

    await user.clear(screen.getByLabelText('Phone number'))
    await user.type(screen.getByLabelText('Phone number'), '415 555 2671')
    await user.click(screen.getByRole('button', { name: 'Send code' }))
    await user.type(await screen.findByLabelText('6-digit code'), '000000')
    expect(await screen.findByRole('alert')).toHaveTextContent('Wrong code. 4 attempts left.')
    expect(screen.getByRole('alert')).toHaveFocus()

    await user.click(screen.getByRole('button', { name: 'Change number' }))
    expect(screen.getByLabelText('Phone number')).toHaveValue('415 555 2671')
    expect(screen.getByLabelText('Phone number')).toHaveFocus()
  })

  it('says when a new code may be asked for, live', async () => {
    mockApi({
      'POST /auth/sign-in/omni/email/otp': problem(429, 'RATE_LIMITED', { retry_after: 42 }),
    })
    const { user } = renderApp(<SignInPage />, { path: '/auth/sign-in', language: 'ru' })
    await user.click(screen.getByRole('tab', { name: 'Код на почту' }))
    await user.type(screen.getByLabelText('Эл. почта'), 'ada@example.com')
    await user.click(screen.getByRole('button', { name: 'Получить код' }))
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Новый код можно запросить через 42 с.',
    )
  })
})

describe('the sign-in screen offline', () => {
  afterEach(() => {
    act(() => onlineManager.setOnline(true))
  })

  it('disables every way to sign in and says why, and sends nothing', async () => {
    const api = mockApi({})
    const { user } = renderApp(<SignInPage />, { path: '/auth/sign-in' })
    act(() => onlineManager.setOnline(false))

    const signIn = screen.getByRole('button', { name: 'Sign in' })
    expect(signIn).toBeDisabled()
    expect(signIn).toHaveAccessibleDescription('You are offline. This needs a connection.')
    await user.type(screen.getByLabelText('Email'), 'ada@example.com')
    await user.type(screen.getByLabelText('Password'), 'long enough{Enter}')

    await user.click(screen.getByRole('tab', { name: 'Email code' }))
    const send = screen.getByRole('button', { name: 'Send code' })
    expect(send).toBeDisabled()
    expect(screen.getByText('You are offline. This needs a connection.')).toBeVisible()
    expect(api.calls).toEqual([])

    act(() => onlineManager.setOnline(true))
    expect(screen.getByRole('button', { name: 'Send code' })).toBeEnabled()
    expect(screen.queryByText('You are offline. This needs a connection.')).toBeNull()
  })
})
