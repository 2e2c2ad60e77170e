import {
  type InputHTMLAttributes,
  type ReactNode,
  type Ref,
  type SelectHTMLAttributes,
  useId,
  useState,
} from 'react'
import { Button } from './components.tsx'

/*
 * Form fields, apart from ./components.tsx, whose buttons, alerts and
 * skeletons the shell draws at first render: fields come with the screens
 * that have forms (issue 16: a module the entry imports ships whole in it).
 */

/** The ids a field's hint and error get, for the input's aria-describedby. */
const describedByOf = (id: string, hint?: string, error?: string) =>
  [hint && `${id}-hint`, error && `${id}-error`].filter(Boolean).join(' ')

/** A field's hint and error, under it and announced with it; `action` at the hint's end ("Max"). */
function FieldNotes({
  id,
  hint,
  error,
  action,
}: {
  id: string
  hint?: string | undefined
  error?: string | undefined
  action?: ReactNode
}) {
  const note = hint && (
    <p id={`${id}-hint`} className="field-hint">
      {hint}
    </p>
  )
  return (
    <>
      {action ? (
        <div className="field-hint-row">
          {note}
          {action}
        </div>
      ) : (
        note
      )}
      {error && (
        <p id={`${id}-error`} className="field-error">
          {error}
        </p>
      )}
    </>
  )
}

interface TextFieldProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'id'> {
  ref?: Ref<HTMLInputElement>
  label: string
  hint?: string
  error?: string
  /** For passwords: a button that shows and hides what was typed, with its two labels. */
  reveal?: { show: string; hide: string }
  /**
   * For amounts: the currency's code shown inside the field, at its end
   * (docs/experience.md, "Forms"). Decorative: the label names the currency too.
   */
  adornment?: string
  /** A small action on the hint's line, at its end: "Max" beside "Available: …". */
  hintAction?: ReactNode
}

/** A labelled input whose hint and error are announced with it (aria-describedby). */
export function TextField({
  label,
  hint,
  error,
  reveal,
  adornment,
  hintAction,
  type,
  ...input
}: TextFieldProps) {
  const id = useId()
  const [revealed, setRevealed] = useState(false)
  const describedBy = describedByOf(id, hint, error)
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <div
        className={
          reveal
            ? 'field-control field-control-toggle'
            : adornment
              ? 'field-control field-control-adorned'
              : 'field-control'
        }
      >
        <input
          {...input}
          id={id}
          type={reveal && revealed ? 'text' : type}
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy || undefined}
        />
        {adornment && (
          <span className="field-adornment" aria-hidden="true">
            {adornment}
          </span>
        )}
        {reveal && (
          <Button
            variant="quiet"
            className="field-toggle"
            aria-pressed={revealed}
            onClick={() => setRevealed((value) => !value)}
          >
            {revealed ? reveal.hide : reveal.show}
          </Button>
        )}
      </div>
      <FieldNotes id={id} hint={hint} error={error} action={hintAction} />
    </div>
  )
}

interface SelectFieldProps extends Omit<SelectHTMLAttributes<HTMLSelectElement>, 'id'> {
  label: string
  hint?: string
  error?: string
}

/** A labelled native select, its hint and error announced with it like TextField's. */
export function SelectField({ label, hint, error, children, ...select }: SelectFieldProps) {
  const id = useId()
  const describedBy = describedByOf(id, hint, error)
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <select
        {...select}
        id={id}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy || undefined}
      >
        {children}
      </select>
      <FieldNotes id={id} hint={hint} error={error} />
    </div>
  )
}
