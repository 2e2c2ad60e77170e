import { useEffect, useRef } from 'react'
import { errorMessage, type Wording } from '../i18n/error-message.ts'
import { useI18n } from '../i18n/i18n.tsx'
import { ApiError } from '../net/api.ts'
import { useSecondsLeft } from './countdown.ts'
import { KycPrompt, needsVerification } from './kyc-prompt.tsx'

/** When a rate limit in `error` lifts, in ms; undefined when it says nothing about waiting. */
export const retryAt = (error: unknown): number | undefined =>
  error instanceof ApiError && error.retryAfter !== undefined
    ? error.receivedAt + error.retryAfter * 1000
    : undefined

/**
 * A failed call in words, announced and focused so keyboard and screen-reader
 * users land on it. "Try again in 42 s" counts down on screen; assistive
 * technology hears the sentence once, and once more when the wait is over,
 * not every second.
 */
export function ErrorSummary(props: { error: unknown; about?: Wording['about'] }) {
  const { t, language } = useI18n()
  const ref = useRef<HTMLDivElement>(null)
  const until = retryAt(props.error)
  const secondsLeft = useSecondsLeft(until)

  useEffect(() => {
    if (props.error) ref.current?.focus()
  }, [props.error])

  if (!props.error) return null
  if (needsVerification(props.error)) return <KycPrompt ref={ref} />
  const wording = { language, about: props.about }
  const live = errorMessage(props.error, t, { ...wording, secondsLeft })
  const counting = until !== undefined && secondsLeft > 0
  return (
    <div ref={ref} className="alert alert-error" role="alert" tabIndex={-1}>
      {counting ? (
        <>
          <span className="visually-hidden">{errorMessage(props.error, t, wording)}</span>
          <span aria-hidden="true">{live}</span>
        </>
      ) : (
        live
      )}
    </div>
  )
}
