import { useId, useState } from 'react'
import { useI18n } from '../../i18n/i18n.tsx'
import { AMOUNT, day } from './activity-narrowing.ts'

/** One choice as pills (radio buttons underneath): "All" and each option. */
export function ChipGroup(props: {
  legend: string
  value: string
  options: { value: string; label: string }[]
  onChange: (value: string) => void
}) {
  const { t } = useI18n()
  const name = useId()
  const all = [{ value: '', label: t('activity.filters.all') }, ...props.options]
  return (
    <fieldset className="chip-group">
      <legend>{props.legend}</legend>
      <div className="chip-options">
        {all.map((option) => (
          <label key={option.value} className="chip">
            <input
              type="radio"
              name={name}
              value={option.value}
              checked={props.value === option.value}
              onChange={() => props.onChange(option.value)}
            />
            <span>{option.label}</span>
          </label>
        ))}
      </div>
    </fieldset>
  )
}

/** A day for the date range, sent as soon as it is picked. */
export function DayField(props: {
  label: string
  value?: string
  onChange: (value?: string) => void
}) {
  const id = useId()
  return (
    <div className="field">
      <label htmlFor={id}>{props.label}</label>
      <input
        id={id}
        type="date"
        value={props.value ?? ''}
        onChange={(event) => props.onChange(day(event.target.value))}
      />
    </div>
  )
}

/**
 * An amount bound, sent when the field is left or Enter pressed (not on each
 * key); one that is not a plain number says so and is not sent.
 */
export function AmountField(props: {
  label: string
  value?: string
  onChange: (value?: string) => void
}) {
  const { t } = useI18n()
  const id = useId()
  const [text, setText] = useState(props.value ?? '')
  const typed = text.trim().replace(',', '.')
  const wrong = typed !== '' && !AMOUNT.test(typed)
  const send = () => {
    if (!wrong) props.onChange(typed || undefined)
  }
  return (
    <div className="field">
      <label htmlFor={id}>{props.label}</label>
      <input
        id={id}
        inputMode="decimal"
        autoComplete="off"
        value={text}
        aria-invalid={wrong || undefined}
        aria-describedby={wrong ? `${id}-error` : undefined}
        onChange={(event) => setText(event.target.value)}
        onBlur={send}
        onKeyDown={(event) => {
          if (event.key === 'Enter') {
            event.preventDefault()
            send()
          }
        }}
      />
      {wrong && (
        <p id={`${id}-error`} className="field-error">
          {t('activity.filters.amountWrong')}
        </p>
      )}
    </div>
  )
}
