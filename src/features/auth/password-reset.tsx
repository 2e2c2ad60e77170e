import { type FormEvent, useEffect, useState } from 'react'
import { useLocation } from 'wouter'
import { fieldErrors } from '../../i18n/error-message.ts'
import { useI18n } from '../../i18n/i18n.tsx'
import { ApiError } from '../../net/api.ts'
import { paths } from '../../paths.ts'
import { Button } from '../../ui/components.tsx'
import { ErrorSummary } from '../../ui/error-summary.tsx'
import { NewPasswordField, useNewPassword } from '../../ui/new-password.tsx'
import { useNeedsServer } from '../../ui/online.tsx'
import { type Action, type CodeCheck, OtpSteps } from '../../ui/otp-steps.tsx'
import { Tabs } from '../../ui/tabs.tsx'
import { useRequestPasswordReset, useResetPassword } from './mutations.ts'

type Channel = 'email' | 'sms'

/** Refusals that are about the code: the person goes back to it. */
const CODE_PROBLEMS = new Set(['OTP_INVALID', 'OTP_EXPIRED', 'OTP_BLOCKED'])
const aboutCode = (error: unknown) =>
  error instanceof ApiError && CODE_PROBLEMS.has(error.code ?? '')

/**
 * A forgotten password, reset: the e-mail or phone the account signs in with,
 * the code sent there, a new password judged as it is typed (as at sign-up),
 * and the person is signed in at home. Every other session of theirs ends.
 */
export function PasswordReset() {
  const { t } = useI18n()
  const [channel, setChannel] = useState<Channel>('email')
  const tabs = [
    { id: 'email', label: t('auth.reset.byEmail'), panelLabel: t('auth.reset.byEmailPanel') },
    { id: 'sms', label: t('auth.reset.byPhone'), panelLabel: t('auth.reset.byPhonePanel') },
  ] as const
  return (
    <Tabs label={t('auth.reset.ways')} tabs={tabs} selected={channel} onSelect={setChannel}>
      <ResetSteps key={channel} channel={channel} />
    </Tabs>
  )
}

function ResetSteps({ channel }: { channel: Channel }) {
  const { t, language } = useI18n()
  const request = useRequestPasswordReset(channel, language)
  const reset = useResetPassword(channel)
  const [, navigate] = useLocation()
  const [code, setCode] = useState<CodeCheck>()

  // The server checks the code with the new password: the code step only keeps it.
  const keepCode: Action<CodeCheck, unknown> = {
    mutate: (check, options) => {
      reset.reset()
      setCode(check)
      options?.onSuccess?.(undefined)
    },
    reset: () => reset.reset(),
    isPending: false,
    error: aboutCode(reset.error) ? reset.error : undefined,
  }

  // A code refused with the new password: back to the code, which says why.
  useEffect(() => {
    if (aboutCode(reset.error)) setCode(undefined)
  }, [reset.error])

  return (
    <>
      {/* Kept, not unmounted, while the new password is asked: going back finds the code step. */}
      <div hidden={code !== undefined}>
        <OtpSteps
          channel={channel}
          label={t(channel === 'email' ? 'auth.email' : 'phone.number')}
          intro={<p className="muted">{t('auth.reset.contactLead')}</p>}
          request={request}
          verify={keepCode}
          onVerified={() => {}}
          codeWording={{
            sentTo: (destination) => t('auth.reset.sentTo', { destination }),
            confirm: t('auth.reset.next'),
          }}
        />
      </div>
      {code && (
        <NewPassword
          email={channel === 'email' ? code.target : undefined}
          busy={reset.isPending}
          error={reset.error}
          onBack={() => {
            reset.reset()
            setCode(undefined)
          }}
          onSubmit={(password) =>
            reset.mutate(
              { ...code, password },
              { onSuccess: () => navigate(paths.home, { replace: true }) },
            )
          }
        />
      )}
    </>
  )
}

function NewPassword(props: {
  email: string | undefined
  busy: boolean
  error: unknown
  onBack: () => void
  onSubmit: (password: string) => void
}) {
  const { t } = useI18n()
  const [password, setPassword] = useState('')
  const [checked, setChecked] = useState(false)
  const judged = useNewPassword(password, props.email)
  const server = useNeedsServer()
  const refused = fieldErrors(props.error, t)['/body/new_password']

  const submit = (event: FormEvent) => {
    event.preventDefault()
    setChecked(true)
    if (judged.error || props.busy || server.offline) return
    props.onSubmit(password)
  }

  return (
    <section className="stack" aria-labelledby="reset-password-title">
      <h2 id="reset-password-title">{t('auth.reset.newTitle')}</h2>
      <p className="lead">{t('auth.reset.newLead')}</p>
      <form className="stack" noValidate onSubmit={submit}>
        <NewPasswordField
          label={t('auth.reset.newPassword')}
          value={password}
          onChange={setPassword}
          onBlur={() => setChecked(true)}
          strength={judged.strength}
          error={(checked ? judged.error : undefined) ?? refused}
        />
        {!refused && <ErrorSummary error={props.error} />}
        <Button type="submit" block busy={props.busy} {...server.disabledProps}>
          {props.busy ? t('auth.reset.saving') : t('auth.reset.save')}
        </Button>
        {server.reason}
      </form>
      <p>
        <Button variant="quiet" onClick={props.onBack}>
          {t('auth.reset.backToCode')}
        </Button>
      </p>
    </section>
  )
}
