import { useQuery } from '@tanstack/react-query'
import { type FormEvent, useState } from 'react'
import type { PasswordStatus } from '../../../contract/auth.ts'
import { fieldErrors, formatMoment } from '../../i18n/error-message.ts'
import { useI18n } from '../../i18n/i18n.tsx'
import { ApiError } from '../../net/api.ts'
import { Button, Notice, Skeleton } from '../../ui/components.tsx'
import { ErrorSummary } from '../../ui/error-summary.tsx'
import { TextField } from '../../ui/fields.tsx'
import { NewPasswordField, useNewPassword } from '../../ui/new-password.tsx'
import { useNeedsServer } from '../../ui/online.tsx'
import { useChangePassword } from './mutations.ts'
import { passwordQuery } from './queries.ts'

/**
 * The password on the security screen: when it last changed, and changing it
 * — or setting a first one, for an account that signs in with Telegram, a
 * passkey or codes — behind the second look. Where the new-device alert
 * leads: a changed password signs every other session out.
 */
export function PasswordSection() {
  const { t, language } = useI18n()
  const status = useQuery(passwordQuery())
  const change = useChangePassword()
  const [open, setOpen] = useState(false)
  const has = status.data?.has_password ?? false
  const changedAt = status.data?.changed_at && formatMoment(status.data.changed_at, language)

  return (
    <section id="password" className="card stack" aria-labelledby="password-title">
      <h2 id="password-title">{t('security.password.title')}</h2>
      {status.isPending ? (
        <Skeleton label={t('security.password.loading')} shape="rows" />
      ) : status.isError ? (
        <ErrorSummary error={status.error} />
      ) : (
        <p className="muted">
          {has
            ? changedAt
              ? t('security.password.changedAt', { date: changedAt })
              : t('security.password.set')
            : t('security.password.none')}
        </p>
      )}
      {change.isSuccess && !open && (
        <Notice>
          {change.data.sessions_ended > 0
            ? t('security.password.savedSignedOut', { count: String(change.data.sessions_ended) })
            : t('security.password.saved')}
        </Notice>
      )}
      {open && status.data ? (
        <PasswordForm
          status={status.data}
          busy={change.isPending}
          error={change.error}
          onCancel={() => {
            change.reset()
            setOpen(false)
          }}
          onSubmit={(body) => change.mutate(body, { onSuccess: () => setOpen(false) })}
        />
      ) : (
        status.data && (
          <div className="row">
            <Button
              variant="secondary"
              onClick={() => {
                change.reset()
                setOpen(true)
              }}
            >
              {t(has ? 'security.password.change' : 'security.password.setFirst')}
            </Button>
          </div>
        )
      )}
    </section>
  )
}

function PasswordForm(props: {
  status: PasswordStatus
  busy: boolean
  error: unknown
  onCancel: () => void
  onSubmit: (body: { current_password?: string; new_password: string }) => void
}) {
  const { t } = useI18n()
  const server = useNeedsServer()
  const [current, setCurrent] = useState('')
  const [password, setPassword] = useState('')
  const [checked, setChecked] = useState(false)
  const judged = useNewPassword(password, undefined)
  const needsCurrent = props.status.has_password
  const currentError = needsCurrent && !current ? t('error.required') : undefined
  const code = props.error instanceof ApiError ? props.error.code : undefined
  const refused = fieldErrors(props.error, t)
  const currentRefused = refused['/body/current_password'] && t('error.CURRENT_PASSWORD_INVALID')
  const newRefused =
    code === 'PASSWORD_UNCHANGED' ? t('error.PASSWORD_UNCHANGED') : refused['/body/new_password']

  const submit = (event: FormEvent) => {
    event.preventDefault()
    setChecked(true)
    if (currentError || judged.error || props.busy || server.offline) return
    props.onSubmit({
      ...(needsCurrent && { current_password: current }),
      new_password: password,
    })
  }

  return (
    <form className="stack" noValidate onSubmit={submit}>
      <p className="muted">{t('security.password.lead')}</p>
      {needsCurrent && (
        <TextField
          label={t('security.password.current')}
          type="password"
          name="current-password"
          autoComplete="current-password"
          required
          value={current}
          onChange={(event) => setCurrent(event.target.value)}
          error={(checked ? currentError : undefined) ?? currentRefused}
          reveal={{ show: t('auth.showPassword'), hide: t('auth.hidePassword') }}
        />
      )}
      <NewPasswordField
        label={t('security.password.new')}
        value={password}
        onChange={setPassword}
        onBlur={() => setChecked(true)}
        strength={judged.strength}
        error={(checked ? judged.error : undefined) ?? newRefused}
      />
      {!currentRefused && !newRefused && <ErrorSummary error={props.error} />}
      <div className="row">
        <Button type="submit" busy={props.busy} {...server.disabledProps}>
          {props.busy ? t('security.password.saving') : t('security.password.save')}
        </Button>
        <Button variant="secondary" onClick={props.onCancel}>
          {t('action.cancel')}
        </Button>
      </div>
      {server.reason}
    </form>
  )
}
