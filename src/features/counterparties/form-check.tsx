import { type ReactNode, useEffect, useRef, useState } from 'react'
import type { MessageKey } from '../../i18n/en.ts'
import { errorMessage } from '../../i18n/error-message.ts'
import { useI18n } from '../../i18n/i18n.tsx'
import { ApiError } from '../../net/api.ts'
import { ErrorSummary } from '../../ui/error-summary.tsx'

/** What is wrong with a form, field by field, as catalogue keys. */
export type Problems<K extends string> = Partial<Record<K, MessageKey>>

/**
 * The fields a 422 names (`errors[].field`, a JSON pointer), each with our own
 * words for it: the server's message is English and meant for developers.
 * Pointers no field of the form stands for are left to the summary's headline.
 */
export function refusedFields<K extends string>(
  error: unknown,
  fieldOf: (pointer: string) => K | undefined,
  messageOf: (field: K) => MessageKey,
): Problems<K> {
  const found: Problems<K> = {}
  if (!(error instanceof ApiError) || error.status !== 422) return found
  for (const { field: pointer } of error.problem?.errors ?? []) {
    const field = fieldOf(pointer)
    if (field) found[field] ??= messageOf(field)
  }
  return found
}

/**
 * When a form's problems show: a field's own once it has been left (blur), all
 * of them after a submit, and the server's until the field is edited again.
 * `attempt` counts the failed submits: each one moves focus to the summary.
 */
export function useFormCheck<K extends string>() {
  const { t } = useI18n()
  const [touched, setTouched] = useState<ReadonlySet<K>>(() => new Set())
  const [submitted, setSubmitted] = useState(false)
  const [server, setServer] = useState<Problems<K>>({})
  const [attempt, setAttempt] = useState(0)

  const shown = (problems: Problems<K>, field: K): MessageKey | undefined =>
    server[field] ?? (submitted || touched.has(field) ? problems[field] : undefined)

  return {
    attempt,
    submitted,
    touch: (field: K) =>
      setTouched((current) => (current.has(field) ? current : new Set(current).add(field))),
    /** The person changed the field: what the server said about the old value no longer holds. */
    edited: (field: K) =>
      setServer((current) => {
        if (!(field in current)) return current
        const { [field]: _, ...rest } = current
        return rest as Problems<K>
      }),
    /** Before sending: true when nothing stops it; else every problem shows and the summary takes focus. */
    passes: (problems: Problems<K>) => {
      setSubmitted(true)
      if (Object.keys(problems).length === 0) return true
      setAttempt((count) => count + 1)
      return false
    },
    /** The server refused fields: they show, and the summary takes focus again. */
    refused: (problems: Problems<K>) => {
      setServer(problems)
      setAttempt((count) => count + 1)
    },
    errorOf: (problems: Problems<K>, field: K) => {
      const key = shown(problems, field)
      return key ? t(key) : undefined
    },
    /** The summary's lines, in the order of `fields`: only after a submit. */
    summary: (problems: Problems<K>, fields: readonly { field: K; label: string }[]) =>
      submitted
        ? fields.flatMap(({ field, label }) => {
            const key = shown(problems, field)
            return key ? [{ field, label, message: t(key) }] : []
          })
        : [],
    reset: () => {
      setTouched(new Set())
      setSubmitted(false)
      setServer({})
    },
  }
}

/**
 * A field of a checked form: leaving it (focus moving out, from any of its
 * controls) marks it touched, and the summary finds it by `data-field`.
 */
export function FieldSlot(props: { field: string; onLeave: () => void; children: ReactNode }) {
  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: focus leaving any control inside bubbles here; the div itself never takes focus.
    <div data-field={props.field} onBlur={props.onLeave}>
      {props.children}
    </div>
  )
}

export interface SummaryLine {
  field: string
  label: string
  message: string
}

/**
 * What stopped a submit, announced and focused: the failed call's headline
 * and a line per field, each moving focus to its field. A failure that names
 * no field (a lost connection, a 500) is the app's usual ErrorSummary, unless
 * `wording` has words of its own for it (a conflict this form knows about).
 */
export function FormProblems(props: {
  attempt: number
  error: unknown
  lines: SummaryLine[]
  wording?: (error: unknown) => string | undefined
}) {
  const { t, language } = useI18n()
  const ref = useRef<HTMLDivElement>(null)
  const { attempt, lines } = props
  const own = props.error ? props.wording?.(props.error) : undefined
  const any = lines.length > 0 || own !== undefined

  // biome-ignore lint/correctness/useExhaustiveDependencies: focus moves once per failed submit, not when a line is fixed.
  useEffect(() => {
    if (attempt > 0 && any) ref.current?.focus()
  }, [attempt])

  if (!any) return <ErrorSummary error={props.error} />
  const focusField = (field: string) => {
    const slot = ref.current?.closest('form')?.querySelector(`[data-field="${field}"]`)
    slot?.querySelector<HTMLElement>('input, select, textarea')?.focus()
  }
  return (
    <div ref={ref} className="alert alert-error cp-summary" role="alert" tabIndex={-1}>
      <p>
        {own ?? (props.error ? errorMessage(props.error, t, { language }) : t('cp.form.check'))}
      </p>
      <ul hidden={lines.length === 0}>
        {lines.map((line) => (
          <li key={line.field}>
            <button
              type="button"
              className="cp-summary-link"
              onClick={() => focusField(line.field)}
            >
              {line.label}: {line.message}
            </button>
          </li>
        ))}
      </ul>
    </div>
  )
}
