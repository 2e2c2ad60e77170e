import { type FormEvent, useState } from 'react'
import type { EmailPasswordBody } from '../../../contract/auth.ts'
import type { MessageKey } from '../../i18n/en.ts'
import { fieldErrors } from '../../i18n/error-message.ts'
import { useI18n } from '../../i18n/i18n.tsx'
import { Button, TextField } from '../../ui/components.tsx'
import { ErrorSummary } from '../../ui/error-summary.tsx'
import { useNeedsServer } from '../../ui/online.tsx'
import { isEmail } from '../../ui/validation.ts'

const MIN_PASSWORD = 8

interface Props {
  mode: 'sign-in' | 'sign-up'
  submitLabel: MessageKey
  busyLabel: MessageKey
  busy: boolean
  error: unknown
  onSubmit: (credentials: EmailPasswordBody) => void
}

/**
 * E-mail and password, checked as the person leaves each field and again on
 * submit; the server's own answer (wrong password, taken e-mail) shows above
 * the button and is announced.
 */
export function CredentialsForm({ mode, submitLabel, busyLabel, busy, error, onSubmit }: Props) {
  const { t } = useI18n()
  const [email, setEmail] = useState('')
  const [password, setPassword] = useState('')
  const [touched, setTouched] = useState({ email: false, password: false })
  const server = useNeedsServer()

  const emailError = !email.trim()
    ? t('error.required')
    : isEmail(email)
      ? undefined
      : t('error.emailInvalid')
  const passwordError = !password
    ? t('error.required')
    : mode === 'sign-up' && password.length < MIN_PASSWORD
      ? t('error.passwordShort')
      : undefined

  // What the server refused by field (a weak password, a malformed e-mail), in our words.
  const refused = fieldErrors(error, t)

  const submit = (event: FormEvent) => {
    event.preventDefault()
    setTouched({ email: true, password: true })
    if (emailError || passwordError || busy || server.offline) return
    onSubmit({ email: email.trim(), password })
  }

  return (
    <form className="stack" noValidate onSubmit={submit}>
      <TextField
        label={t('auth.email')}
        type="email"
        name="email"
        autoComplete={mode === 'sign-in' ? 'username' : 'email'}
        inputMode="email"
        required
        value={email}
        onChange={(event) => setEmail(event.target.value)}
        onBlur={() => setTouched((state) => ({ ...state, email: true }))}
        error={(touched.email ? emailError : undefined) ?? refused['/body/email']}
      />
      <TextField
        label={t('auth.password')}
        type="password"
        name="password"
        autoComplete={mode === 'sign-in' ? 'current-password' : 'new-password'}
        required
        value={password}
        onChange={(event) => setPassword(event.target.value)}
        onBlur={() => setTouched((state) => ({ ...state, password: true }))}
        hint={mode === 'sign-up' ? t('auth.passwordHint') : undefined}
        error={(touched.password ? passwordError : undefined) ?? refused['/body/password']}
        reveal={{ show: t('auth.showPassword'), hide: t('auth.hidePassword') }}
      />
      <ErrorSummary error={error} />
      <Button type="submit" block busy={busy} {...server.disabledProps}>
        {busy ? t(busyLabel) : t(submitLabel)}
      </Button>
      {server.reason}
    </form>
  )
}
