import { type FormEvent, useEffect, useId, useRef, useState } from 'react'
import type { OtpSent } from '../../contract/otp.ts'
import { useI18n } from '../i18n/i18n.tsx'
import { Button, Notice } from './components.tsx'
import { useSecondsLeft } from './countdown.ts'
import { ErrorSummary, retryAt } from './error-summary.tsx'
import { TextField } from './fields.tsx'
import { useNeedsServer } from './online.tsx'

export const CODE_LENGTH = 6

interface Props {
  /** The answer of the "send a code" call: where it went, for how long, when to resend. */
  sent: OtpSent
  /** When that answer arrived (ms): the resend countdown runs from here. */
  sentAt: number
  /** How many codes were sent for this step; above 1 the person hears that a new one went. */
  sends: number
  verifying: boolean
  resending: boolean
  /** The last failure, of checking or of resending; worded the one-time-code way. */
  error: unknown
  onVerify: (code: string) => void
  onResend: () => void
  onBack: () => void
  backLabel: string
  /** The heading level that fits where the step is shown. */
  level?: 2 | 3
  /**
   * Where the code went, said another way (a reset cannot say "we sent",
   * only "if there is an account"), and the button's word when the code is
   * not checked on its own but taken to the next step.
   */
  wording?: CodeWording
}

export interface CodeWording {
  sentTo: (destination: string) => string
  confirm: string
}

/**
 * The code step of every one-time-code flow (sign-in, contact change): one
 * input the platform can fill from the SMS or e-mail (autocomplete
 * one-time-code), sent by itself at the sixth digit; resend after a countdown;
 * a way back to change the address or number.
 */
export function CodeEntry(props: Props) {
  const { t } = useI18n()
  const [code, setCode] = useState('')
  const [incomplete, setIncomplete] = useState(false)
  const input = useRef<HTMLInputElement>(null)
  const titleId = useId()
  const Heading = props.level === 3 ? 'h3' : 'h2'
  const server = useNeedsServer()

  useEffect(() => {
    input.current?.focus()
  }, [])

  // A refused code is cleared, so the next one can be typed (or filled) from scratch.
  useEffect(() => {
    if (props.error) setCode('')
  }, [props.error])

  const resendAt = Math.max(props.sentAt + props.sent.resend_in * 1000, retryAt(props.error) ?? 0)
  const resendIn = useSecondsLeft(resendAt)

  // No maxLength: it would cut a pasted "123 456" to "123 45" before we see it.
  const change = (value: string) => {
    const digits = value.replace(/\D/g, '').slice(0, CODE_LENGTH)
    setCode(digits)
    setIncomplete(false)
    if (digits.length === CODE_LENGTH && !props.verifying && !server.offline) props.onVerify(digits)
  }

  const submit = (event: FormEvent) => {
    event.preventDefault()
    if (props.verifying || server.offline) return
    if (code.length < CODE_LENGTH) {
      setIncomplete(true)
      input.current?.focus()
      return
    }
    props.onVerify(code)
  }

  return (
    <section className="stack" aria-labelledby={titleId}>
      <Heading id={titleId}>{t('code.title')}</Heading>
      <p className="lead">
        {props.wording?.sentTo(props.sent.destination) ??
          t('code.sentTo', { destination: props.sent.destination })}{' '}
        {t('code.validFor', { minutes: Math.max(1, Math.round(props.sent.expires_in / 60)) })}
      </p>
      <form className="stack" noValidate onSubmit={submit}>
        <TextField
          ref={input}
          label={t('code.label')}
          name="code"
          className="code-input"
          autoComplete="one-time-code"
          inputMode="numeric"
          pattern="[0-9]*"
          required
          value={code}
          onChange={(event) => change(event.target.value)}
          error={incomplete ? t('code.incomplete') : undefined}
          readOnly={props.verifying}
        />
        <ErrorSummary error={props.error} about="code" />
        {props.sends > 1 && !props.error && !props.resending && <Notice>{t('code.resent')}</Notice>}
        <Button type="submit" block busy={props.verifying} {...server.disabledProps}>
          {props.verifying ? t('code.checking') : (props.wording?.confirm ?? t('code.confirm'))}
        </Button>
        {server.reason}
      </form>
      <div className="row">
        <Button
          variant="secondary"
          onClick={props.onResend}
          disabled={resendIn > 0 || server.offline}
          busy={props.resending}
          aria-describedby={`${titleId}-resend`}
        >
          {t('code.resend')}
        </Button>
        <span id={`${titleId}-resend`} className="muted">
          {/* A refused resend already counts down in the error above. */}
          {resendIn > 0 && retryAt(props.error) === undefined
            ? t('code.resendIn', { seconds: resendIn })
            : ''}
        </span>
      </div>
      <p>
        <Button variant="quiet" onClick={props.onBack}>
          {props.backLabel}
        </Button>
      </p>
    </section>
  )
}
