import { act, render, screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { Problem } from '../../contract/problem.ts'
import type { ProblemCode } from '../../contract/problem-codes.ts'
import { I18nProvider, type Language } from '../i18n/i18n.tsx'
import { ApiError } from '../net/api.ts'
import { CodeEntry } from './code-entry.tsx'

const SENT = {
  channel: 'email',
  destination: 'a•••@example.com',
  expires_in: 300,
  resend_in: 42,
} as const

function renderEntry(
  props: Partial<Parameters<typeof CodeEntry>[0]> = {},
  language: Language = 'en',
) {
  const handlers = { onVerify: vi.fn(), onResend: vi.fn(), onBack: vi.fn() }
  const sentAt = Date.now()
  const ui = (error: unknown) => (
    <I18nProvider initial={language}>
      <CodeEntry
        sent={SENT}
        sentAt={sentAt}
        sends={1}
        verifying={false}
        resending={false}
        backLabel="Change email"
        {...handlers}
        {...props}
        error={error}
      />
    </I18nProvider>
  )
  // The step opens first; a failure comes later, as it does in the app.
  const view = render(ui(null))
  if (props.error) view.rerender(ui(props.error))
  return { ...handlers, view }
}

const apiError = (status: number, code: ProblemCode, extra: Partial<Problem> = {}) =>
  new ApiError(status, {
    type: 'x',
    title: 'x',
    status,
    code,
    detail: 'English detail for developers',
    ...extra,
  })

afterEach(() => {
  vi.useRealTimers()
})

describe('CodeEntry', () => {
  it('opens with the focus in one one-time-code input and says where the code went', () => {
    renderEntry()
    const input = screen.getByLabelText('6-digit code')
    expect(input).toHaveFocus()
    expect(input).toHaveAttribute('autocomplete', 'one-time-code')
    expect(input).toHaveAttribute('inputmode', 'numeric')
    expect(screen.getByText(/We sent a 6-digit code to a•••@example\.com\./)).toBeInTheDocument()
  })

  it('sends the code by itself at the sixth digit, and only digits', async () => {
    const user = userEvent.setup()
    const { onVerify } = renderEntry()
    const input = screen.getByLabelText('6-digit code')
    await user.type(input, '12a3-45')
    expect(input).toHaveValue('12345')
    expect(onVerify).not.toHaveBeenCalled()
    await user.type(input, '6')
    expect(onVerify).toHaveBeenCalledExactlyOnceWith('123456')
  })

  it('takes a pasted code with spaces', async () => {
    const user = userEvent.setup()
    const { onVerify } = renderEntry()
    await user.click(screen.getByLabelText('6-digit code'))
    await user.paste('123 456')
    expect(onVerify).toHaveBeenCalledExactlyOnceWith('123456')
  })

  it('asks for all six digits when confirmed early', async () => {
    const user = userEvent.setup()
    const { onVerify } = renderEntry()
    await user.type(screen.getByLabelText('6-digit code'), '123')
    await user.click(screen.getByRole('button', { name: 'Confirm' }))
    expect(onVerify).not.toHaveBeenCalled()
    expect(screen.getByLabelText('6-digit code')).toHaveAccessibleDescription('Enter all 6 digits.')
  })

  it('lets a new code be asked for only when the countdown is over', async () => {
    vi.useFakeTimers()
    const { onResend } = renderEntry()
    const resend = screen.getByRole('button', { name: 'Resend code' })
    expect(resend).toBeDisabled()
    expect(resend).toHaveAccessibleDescription('You can ask for a new code in 42 s.')

    act(() => vi.advanceTimersByTime(1000))
    expect(resend).toHaveAccessibleDescription('You can ask for a new code in 41 s.')

    act(() => vi.advanceTimersByTime(41_000))
    expect(resend).toBeEnabled()
    expect(resend).toHaveAccessibleDescription('')
    act(() => resend.click())
    expect(onResend).toHaveBeenCalledOnce()
  })

  it('goes back to change the address', async () => {
    const user = userEvent.setup()
    const { onBack } = renderEntry()
    await user.click(screen.getByRole('button', { name: 'Change email' }))
    expect(onBack).toHaveBeenCalledOnce()
  })

  describe('says what went wrong, in words, and moves the focus there', () => {
    it.each([
      [apiError(400, 'OTP_INVALID', { attempts_left: 3 }), 'Wrong code. 3 attempts left.'],
      [apiError(400, 'OTP_INVALID', { attempts_left: 1 }), 'Wrong code. 1 attempt left.'],
      [apiError(419, 'OTP_EXPIRED'), 'This code has expired. Send a new one.'],
      [apiError(423, 'USER_BLOCKED'), 'This account is blocked. Please contact support.'],
      [apiError(502, 'MESSAGE_NOT_DELIVERED'), 'We could not deliver the code.'],
      [new TypeError('Failed to fetch'), 'No connection to the server.'],
    ])('%#: %s', (error, words) => {
      renderEntry({ error })
      const alert = screen.getByRole('alert')
      expect(alert).toHaveTextContent(words)
      expect(alert).not.toHaveTextContent('English detail')
      expect(alert).toHaveFocus()
      expect(screen.getByLabelText('6-digit code')).toHaveValue('')
    })

    it('names the time a block lifts, in the person’s language', () => {
      vi.useFakeTimers()
      vi.setSystemTime(new Date(2026, 5, 3, 13, 50))
      const until = new Date(2026, 5, 3, 14, 5)
      const time = new Intl.DateTimeFormat('en', { timeStyle: 'short' }).format(until)
      renderEntry({ error: apiError(423, 'OTP_BLOCKED', { blocked_until: until.toISOString() }) })
      expect(screen.getByRole('alert')).toHaveTextContent(
        `Too many wrong codes. Try again at ${time}.`,
      )
    })

    it('counts down a refused resend live', () => {
      vi.useFakeTimers()
      const { onResend } = renderEntry({
        sentAt: Date.now() - 60_000,
        error: apiError(429, 'RATE_LIMITED', { retry_after: 42 }),
      })
      expect(screen.getByRole('alert')).toHaveTextContent('You can ask for a new code in 42 s.')
      act(() => vi.advanceTimersByTime(2000))
      expect(screen.getByRole('alert')).toHaveTextContent('You can ask for a new code in 40 s.')
      expect(screen.getByRole('button', { name: 'Resend code' })).toBeDisabled()
      act(() => vi.advanceTimersByTime(40_000))
      expect(screen.getByRole('alert')).toHaveTextContent('You can ask for a new code now.')
      act(() => screen.getByRole('button', { name: 'Resend code' }).click())
      expect(onResend).toHaveBeenCalledOnce()
    })

    it('in Russian too', () => {
      vi.useFakeTimers()
      vi.setSystemTime(new Date(2026, 5, 3, 13, 50))
      const { view } = renderEntry(
        { error: apiError(400, 'OTP_INVALID', { attempts_left: 3 }) },
        'ru',
      )
      expect(screen.getByRole('alert')).toHaveTextContent('Неверный код. Осталось 3 попытки.')
      expect(screen.getByRole('button', { name: 'Отправить код ещё раз' })).toBeDisabled()
      view.unmount()

      renderEntry(
        {
          error: apiError(423, 'OTP_BLOCKED', {
            blocked_until: new Date(2026, 5, 3, 14, 5).toISOString(),
          }),
        },
        'ru',
      )
      expect(screen.getByRole('alert')).toHaveTextContent(
        'Слишком много неверных кодов. Попробуйте снова в 14:05.',
      )
    })
  })
})
