import { type FormEvent, type ReactNode, useEffect, useRef, useState } from 'react'
import type { EmailPasswordBody } from '../../../contract/auth.ts'
import type { MessageKey } from '../../i18n/en.ts'
import { fieldErrors } from '../../i18n/error-message.ts'
import { useI18n } from '../../i18n/i18n.tsx'
import { Button } from '../../ui/components.tsx'
import { ErrorSummary } from '../../ui/error-summary.tsx'
import { TextField } from '../../ui/fields.tsx'
import { NewPasswordField, useNewPassword } from '../../ui/new-password.tsx'
import { useNeedsServer } from '../../ui/online.tsx'
import { TermsConsent } from '../../ui/terms-consent.tsx'
import { isEmail } from '../../ui/validation.ts'

interface Props {
  mode: 'sign-in' | 'sign-up'
  submitLabel: MessageKey
  busyLabel: MessageKey
  busy: boolean
  error: unknown
  onSubmit: (credentials: EmailPasswordBody) => void
  /** Under the password field when signing in: the way to reset a forgotten one. */
  forgot?: ReactNode
}

/**
 * E-mail and password, checked as the person leaves each field and again on
 * submit. Signing up says the whole password rule before it is broken, shows
 * the password's strength while it is typed (by the server's own rule), and
 * asks for consent to the terms. A refusal the server pins on a field shows
 * there, once; anything else (a taken e-mail, a lost connection) above the button.
 */
export function CredentialsForm({
  mode,
  submitLabel,
  busyLabel,
  busy,
  error,
  onSubmit,
  forgot,
}: Props) {
  const { t } = useI18n()
  const signingUp = mode === 'sign-up'
  const [email, setEmail] = useState('')
  const [password, setPassword] = useState('')
  const [agreed, setAgreed] = useState(false)
  const [touched, setTouched] = useState({ email: false, password: false, terms: false })
  const server = useNeedsServer()
  const passwordRef = useRef<HTMLInputElement>(null)

  const judged = useNewPassword(signingUp ? password : '', email)
  const emailError = !email.trim()
    ? t('error.required')
    : isEmail(email)
      ? undefined
      : t('error.emailInvalid')
  const passwordError = signingUp ? judged.error : password ? undefined : t('error.required')

  // What the server refused by field (a weak password, a malformed e-mail), in our words.
  const refused = fieldErrors(error, t)
  const onlyFields = Object.keys(refused).length > 0
  useEffect(() => {
    if (refused['/body/password']) passwordRef.current?.focus()
  }, [refused['/body/password']])

  const submit = (event: FormEvent) => {
    event.preventDefault()
    setTouched({ email: true, password: true, terms: true })
    if (emailError || passwordError || busy || server.offline) return
    if (signingUp && !agreed) return
    onSubmit({ email: email.trim(), password })
  }

  return (
    <form className="stack" noValidate onSubmit={submit}>
      <TextField
        label={t('auth.email')}
        type="email"
        name="email"
        autoComplete={signingUp ? 'email' : 'username webauthn'}
        inputMode="email"
        required
        value={email}
        onChange={(event) => setEmail(event.target.value)}
        onBlur={() => setTouched((state) => ({ ...state, email: true }))}
        error={(touched.email ? emailError : undefined) ?? refused['/body/email']}
      />
      {signingUp ? (
        <NewPasswordField
          inputRef={passwordRef}
          label={t('auth.password')}
          name="password"
          value={password}
          onChange={setPassword}
          onBlur={() => setTouched((state) => ({ ...state, password: true }))}
          strength={judged.strength}
          error={(touched.password ? passwordError : undefined) ?? refused['/body/password']}
        />
      ) : (
        <div className="stack password-block">
          <TextField
            ref={passwordRef}
            label={t('auth.password')}
            type="password"
            name="password"
            autoComplete="current-password"
            required
            value={password}
            onChange={(event) => setPassword(event.target.value)}
            onBlur={() => setTouched((state) => ({ ...state, password: true }))}
            error={(touched.password ? passwordError : undefined) ?? refused['/body/password']}
            reveal={{ show: t('auth.showPassword'), hide: t('auth.hidePassword') }}
          />
          {forgot}
        </div>
      )}
      {signingUp && <TermsConsent checked={agreed} onChange={setAgreed} missing={touched.terms} />}
      {!onlyFields && <ErrorSummary error={error} />}
      <Button type="submit" block busy={busy} {...server.disabledProps}>
        {busy ? t(busyLabel) : t(submitLabel)}
      </Button>
      {server.reason}
    </form>
  )
}
