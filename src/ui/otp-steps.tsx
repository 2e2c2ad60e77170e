import { type FormEvent, type ReactNode, useEffect, useRef, useState } from 'react'
import type { OtpChannel, OtpSent } from '../../contract/otp.ts'
import { fieldErrors } from '../i18n/error-message.ts'
import { useI18n } from '../i18n/i18n.tsx'
import { CodeEntry, type CodeWording } from './code-entry.tsx'
import { Button } from './components.tsx'
import { useCountries } from './countries.ts'
import { ErrorSummary } from './error-summary.tsx'
import { TextField } from './fields.tsx'
import { useNeedsServer } from './online.tsx'
import { emptyPhone, looksLikePhone, type PhoneDraft } from './phone.ts'
import { PhoneField, phoneFromDraft } from './phone-field.tsx'
import { isEmail } from './validation.ts'

/**
 * What a step needs of a call: a TanStack Query mutation fits as it is, but
 * nothing here depends on that.
 */
export interface Action<V, R> {
  mutate: (variables: V, options?: { onSuccess?: (result: R) => void }) => void
  reset: () => void
  isPending: boolean
  error: unknown
}

/** Checking a code: the address or number it was sent to, and the code. */
export interface CodeCheck {
  target: string
  code: string
}

interface Props {
  /** email: an address; sms: a phone, sent as an international number ("+14155552671"). */
  channel: OtpChannel
  /** The contact field's label ("Email", "New email", "Phone number"). */
  label: string
  /** Sends a code to the address or number. */
  request: Action<string, OtpSent>
  /** Checks it; on success the flow is over. */
  verify: Action<CodeCheck, unknown>
  onVerified: () => void
  /** A reason to refuse a contact before sending (e.g. "this is already yours"). */
  reject?: (target: string) => string | undefined
  /** Shown beside "Send code" when the flow can be abandoned (the profile). */
  onCancel?: () => void
  /** Heading level of the code step. */
  level?: 2 | 3
  /** Said above the address or number, not on the code step. */
  intro?: ReactNode
  /** Focus the address or number at once (the flow was opened on request). */
  autoFocus?: boolean
  /** The code step's words, when they differ (code-entry.tsx). */
  codeWording?: CodeWording
}

interface Sent {
  target: string
  answer: OtpSent
  at: number
  sends: number
}

/**
 * Every one-time-code flow, in two steps: the address or number, then the
 * code sent to it. Sign-in by code and the contact change are both this;
 * they differ only in the calls they pass.
 */
export function OtpSteps(props: Props) {
  const { t } = useI18n()
  const { request, verify } = props
  const [sent, setSent] = useState<Sent>()
  const [email, setEmail] = useState('')
  const [phone, setPhone] = useState<PhoneDraft>(emptyPhone)
  const [focusContact, setFocusContact] = useState(props.autoFocus ?? false)

  const send = (target: string, sends: number) => {
    verify.reset()
    request.mutate(target, {
      onSuccess: (answer) => setSent({ target, answer, at: Date.now(), sends }),
    })
  }

  if (sent) {
    return (
      <CodeEntry
        sent={sent.answer}
        sentAt={sent.at}
        sends={sent.sends}
        verifying={verify.isPending}
        resending={request.isPending}
        error={verify.error ?? request.error}
        onVerify={(code) => {
          request.reset()
          verify.mutate({ target: sent.target, code }, { onSuccess: props.onVerified })
        }}
        onResend={() => send(sent.target, sent.sends + 1)}
        onBack={() => {
          request.reset()
          verify.reset()
          setSent(undefined)
          setFocusContact(true)
        }}
        backLabel={t(props.channel === 'email' ? 'code.changeEmail' : 'code.changeNumber')}
        level={props.level}
        wording={props.codeWording}
      />
    )
  }

  return (
    <>
      {props.intro}
      <ContactForm
        channel={props.channel}
        label={props.label}
        email={email}
        onEmail={setEmail}
        phone={phone}
        onPhone={setPhone}
        busy={request.isPending}
        error={request.error}
        reject={props.reject}
        onCancel={props.onCancel}
        autoFocus={focusContact}
        onSubmit={(target) => send(target, 1)}
      />
    </>
  )
}

function ContactForm(props: {
  channel: OtpChannel
  label: string
  email: string
  onEmail: (email: string) => void
  phone: PhoneDraft
  onPhone: (phone: PhoneDraft) => void
  busy: boolean
  error: unknown
  reject?: (target: string) => string | undefined
  onCancel?: () => void
  autoFocus: boolean
  onSubmit: (target: string) => void
}) {
  const { t } = useI18n()
  const { countries, isError: countriesFailed } = useCountries()
  const [checked, setChecked] = useState(false)
  const form = useRef<HTMLFormElement>(null)
  const server = useNeedsServer()

  // Back from the code step: straight to the address or number to correct it.
  useEffect(() => {
    if (props.autoFocus) form.current?.querySelector<HTMLInputElement>('input')?.focus()
  }, [props.autoFocus])

  const isEmailChannel = props.channel === 'email'
  const target = isEmailChannel ? props.email.trim() : phoneFromDraft(props.phone, countries)
  const invalid = isEmailChannel
    ? !props.email.trim()
      ? t('error.required')
      : isEmail(props.email)
        ? undefined
        : t('error.emailInvalid')
    : !props.phone.national.trim()
      ? t('error.required')
      : looksLikePhone(props.phone.national)
        ? undefined
        : t('error.field.phone')
  const problem = invalid ?? props.reject?.(target)
  const refused = fieldErrors(props.error, t)[isEmailChannel ? '/body/email' : '/body/phone']
  const fieldError = (checked ? problem : undefined) ?? refused

  const submit = (event: FormEvent) => {
    event.preventDefault()
    setChecked(true)
    if (problem || props.busy || server.offline) return
    props.onSubmit(target)
  }

  return (
    <form ref={form} className="stack" noValidate onSubmit={submit}>
      {isEmailChannel ? (
        <TextField
          label={props.label}
          type="email"
          name="email"
          autoComplete="email"
          inputMode="email"
          required
          value={props.email}
          onChange={(event) => props.onEmail(event.target.value)}
          error={fieldError}
        />
      ) : (
        <PhoneField
          label={props.label}
          value={props.phone}
          onChange={props.onPhone}
          countries={countries}
          countriesFailed={countriesFailed}
          error={fieldError}
        />
      )}
      <ErrorSummary error={props.error} about="code" />
      <div className="row">
        <Button type="submit" busy={props.busy} block={!props.onCancel} {...server.disabledProps}>
          {props.busy ? t('code.sending') : t('code.send')}
        </Button>
        {props.onCancel && (
          <Button variant="secondary" onClick={props.onCancel}>
            {t('action.cancel')}
          </Button>
        )}
      </div>
      {server.reason}
    </form>
  )
}
