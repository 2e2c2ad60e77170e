import { render, screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it, vi } from 'vitest'
import { I18nProvider } from '../../i18n/i18n.tsx'
import { ApiError } from '../../net/api.ts'
import { CredentialsForm } from './credentials-form.tsx'

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
  it('submits the e-mail trimmed and the password as typed', async () => {
    const { onSubmit, user } = renderForm()
    await user.type(screen.getByLabelText('Email'), '  ada@example.com ')
    await user.type(screen.getByLabelText('Password'), ' long enough ')
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
      'At least 8 characters. The password needs at least 8 characters.',
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
    expect(screen.getByRole('alert')).toHaveTextContent('This password is too easy to guess.')
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
