import { render, screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it, vi } from 'vitest'
import { I18nProvider } from '../../i18n/i18n.tsx'
import { ApiError } from '../../net/api.ts'
import { CredentialsForm } from './credentials-form.tsx'

const RULE =
  'At least 8 characters. Not a common password like “password123”, and not your email name. A few unrelated words work well.'

function renderForm(props: Partial<Parameters<typeof CredentialsForm>[0]> = {}) {
  const onSubmit = vi.fn()
  render(
    <I18nProvider initial="en">
      <CredentialsForm
        mode="sign-up"
        submitLabel="auth.createAccount"
        busyLabel="auth.creatingAccount"
        busy={false}
        error={null}
        onSubmit={onSubmit}
        {...props}
      />
    </I18nProvider>,
  )
  return { onSubmit, user: userEvent.setup() }
}

describe('CredentialsForm', () => {
  it('links the Terms of Service and the Privacy Policy it asks consent to, as pages of their own', () => {
    renderForm()
    const consent = screen.getByRole('checkbox', {
      name: 'I agree to the Terms of Service and the Privacy Policy',
    })
    expect(consent).not.toBeChecked()
    expect(screen.getByRole('link', { name: 'Terms of Service' })).toHaveAttribute(
      'href',
      '/legal/terms.en.html',
    )
    expect(screen.getByRole('link', { name: 'Privacy Policy' })).toHaveAttribute(
      'href',
      '/legal/privacy.en.html',
    )
  })

  it('submits the e-mail trimmed and the password as typed', async () => {
    const { onSubmit, user } = renderForm()
    await user.type(screen.getByLabelText('Email'), '  ada@example.com ')
    await user.type(screen.getByLabelText('Password'), ' long enough ')
    await user.click(screen.getByRole('checkbox', { name: /I agree to the Terms of Service/ }))
    await user.click(screen.getByRole('button', { name: 'Create account' }))
    expect(onSubmit).toHaveBeenCalledExactlyOnceWith({
      email: 'ada@example.com',
      password: ' long enough ',
    })
  })

  it('explains what is wrong with each field instead of submitting', async () => {
    const { onSubmit, user } = renderForm()
    await user.type(screen.getByLabelText('Email'), 'not-an-email')
    await user.type(screen.getByLabelText('Password'), 'short')
    await user.click(screen.getByRole('button', { name: 'Create account' }))
    expect(onSubmit).not.toHaveBeenCalled()
    expect(screen.getByLabelText('Email')).toHaveAttribute('aria-invalid', 'true')
    expect(screen.getByLabelText('Email')).toHaveAccessibleDescription(
      'Enter an email address like name@example.com.',
    )
    expect(screen.getByLabelText('Password')).toHaveAccessibleDescription(
      `${RULE} The password needs at least 8 characters.`,
    )
    expect(screen.getByRole('checkbox', { name: /I agree/ })).toHaveAttribute(
      'aria-invalid',
      'true',
    )
    expect(screen.getByText('Agree to the terms to open your account.')).toBeVisible()
  })

  it('says the whole password rule before anything is typed', () => {
    renderForm()
    expect(screen.getByLabelText('Password')).toHaveAccessibleDescription(RULE)
    expect(screen.queryByTestId('password-strength')).toBeNull()
  })

  it('shows the strength while typing, by the server’s own rule', async () => {
    const { user } = renderForm()
    await user.type(screen.getByLabelText('Email'), 'ada.lovelace@example.com')
    const password = screen.getByLabelText('Password')
    const meter = () => screen.getByTestId('password-strength')

    await user.type(password, 'abcde')
    expect(meter()).toHaveTextContent('Too short: 3 to go')
    await user.clear(password)
    // The common-password list arrives in its own chunk, once typing starts.
    await user.type(password, 'password123')
    await waitFor(() =>
      expect(meter()).toHaveTextContent('Too common: it would be guessed at once'),
    )
    await user.clear(password)
    await user.type(password, 'my-ada.lovelace-pw')
    expect(meter()).toHaveTextContent('Contains your email name')
    await user.clear(password)
    await user.type(password, 'violet42')
    expect(meter()).toHaveTextContent('Fair')
    await user.clear(password)
    await user.type(password, 'correct horse battery staple')
    expect(meter()).toHaveTextContent('Strong')
  })

  it('refuses a common password in the field before the server has to', async () => {
    const { onSubmit, user } = renderForm()
    await user.type(screen.getByLabelText('Email'), 'ada@example.com')
    await user.type(screen.getByLabelText('Password'), 'password123')
    await user.click(screen.getByRole('checkbox', { name: /I agree/ }))
    await waitFor(() =>
      expect(screen.getByTestId('password-strength')).toHaveTextContent('Too common'),
    )
    await user.click(screen.getByRole('button', { name: 'Create account' }))
    expect(onSubmit).not.toHaveBeenCalled()
    expect(screen.getByLabelText('Password')).toHaveAccessibleDescription(
      expect.stringContaining('This is one of the most common passwords.'),
    )
  })

  it('does not hold old passwords to the length rule at sign-in', async () => {
    const { onSubmit, user } = renderForm({ mode: 'sign-in', submitLabel: 'auth.signIn' })
    await user.type(screen.getByLabelText('Email'), 'ada@example.com')
    await user.type(screen.getByLabelText('Password'), 'short')
    await user.click(screen.getByRole('button', { name: 'Sign in' }))
    expect(onSubmit).toHaveBeenCalledOnce()
  })

  it('announces the server’s answer', () => {
    renderForm({
      error: new ApiError(409, { type: 'x', title: 'Conflict', status: 409, code: 'EMAIL_TAKEN' }),
    })
    expect(screen.getByRole('alert')).toHaveTextContent(
      'An account with this email already exists.',
    )
  })

  it('shows a password the server finds too weak at the password field, in our words', () => {
    renderForm({
      error: new ApiError(422, {
        type: 'x',
        title: 'Unprocessable Content',
        status: 422,
        code: 'PASSWORD_TOO_WEAK',
        detail: 'English detail',
        errors: [{ field: '/body/password', message: 'is a commonly used password' }],
      }),
    })
    // Said once, where it is fixed: no banner repeating it.
    expect(screen.queryByText('This password is too easy to guess.')).toBeNull()
    expect(screen.getByLabelText('Password')).toHaveFocus()
    expect(screen.getByLabelText('Password')).toHaveAccessibleDescription(
      expect.stringContaining('Choose a longer password that is not a common one'),
    )
    expect(screen.getByLabelText('Password')).toHaveAttribute('aria-invalid', 'true')
  })

  it('shows and hides the password on request', async () => {
    const { user } = renderForm()
    const password = screen.getByLabelText('Password')
    expect(password).toHaveAttribute('type', 'password')
    await user.click(screen.getByRole('button', { name: 'Show password' }))
    expect(password).toHaveAttribute('type', 'text')
    expect(screen.getByRole('button', { name: 'Hide password' })).toHaveAttribute(
      'aria-pressed',
      'true',
    )
  })

  it('says it is busy and refuses a second submit while busy', async () => {
    const { onSubmit, user } = renderForm({ busy: true })
    const button = screen.getByRole('button', { name: 'Creating your account…' })
    expect(button).toBeDisabled()
    await user.click(button)
    expect(onSubmit).not.toHaveBeenCalled()
  })
})
