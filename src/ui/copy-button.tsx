import { useEffect, useState } from 'react'
import { useI18n } from '../i18n/i18n.tsx'
import { Button } from './components.tsx'

/**
 * Groups of four, as IBANs and addresses are read and compared by eye
 * (copied without the spaces): the app's one grouping, shown in a `.grouped`
 * element so a line breaks between groups, never inside one.
 */
export const inFours = (text: string) => text.replace(/(.{4})(?=.)/g, '$1 ')

const IBAN = /^[A-Z]{2}\d{2}[A-Z0-9]{11,30}$/

/**
 * An address as a detail shows it: an IBAN in fours, broken only between
 * groups; a chain address as it is, broken anywhere (it has no groups).
 */
export function AddressText(props: { value: string; shown?: string }) {
  const iban = IBAN.test(props.value)
  return (
    <code className={iban ? 'address-text grouped' : 'address-text'} title={props.value}>
      {props.shown ?? (iban ? inFours(props.value) : props.value)}
    </code>
  )
}

/**
 * A label inside the button's sentence: "Copy address", not "Copy Address";
 * an acronym or a code (IBAN, BIC, USDT) keeps its capitals.
 */
const inSentence = (thing: string, language: string) =>
  /^\p{Lu}\p{Ll}/u.test(thing)
    ? thing.charAt(0).toLocaleLowerCase(language) + thing.slice(1)
    : thing

/** How long "Copied" stays before the button reads "Copy" again. */
const FEEDBACK_MS = 2000

/**
 * Copies `text` to the clipboard. The outcome is announced politely beside the
 * button (role=status) — the button's own name does not change under the
 * person's focus. A secret brings its own `write` (one that clears the
 * clipboard after a while) and says so in `copied`.
 */
export function CopyButton(props: {
  text: string
  thing?: string
  write?: (text: string) => Promise<void>
  copied?: string
  /** Reads just "Copy", named "Copy {thing}" for screen readers: where the row's label says what. */
  short?: boolean
}) {
  const { t, language } = useI18n()
  const [outcome, setOutcome] = useState<'copied' | 'failed'>()
  const thing = props.thing && inSentence(props.thing, language)

  useEffect(() => {
    if (outcome !== 'copied') return
    const timer = setTimeout(() => setOutcome(undefined), FEEDBACK_MS)
    return () => clearTimeout(timer)
  }, [outcome])

  const copy = async () => {
    try {
      await (props.write ?? ((text) => navigator.clipboard.writeText(text)))(props.text)
      setOutcome('copied')
    } catch {
      setOutcome('failed')
    }
  }

  return (
    <span className="copy">
      <Button
        variant="secondary"
        onClick={copy}
        aria-label={props.short && thing ? t('copy.copyThing', { thing }) : undefined}
      >
        {thing && !props.short ? t('copy.copyThing', { thing }) : t('copy.copy')}
      </Button>
      <span role="status" className="copy-status">
        {outcome === 'copied'
          ? (props.copied ?? t('copy.copied'))
          : outcome === 'failed'
            ? t('copy.failed')
            : ''}
      </span>
    </span>
  )
}

/** One fact to copy: `shown` as people read it ("DE89 3704 …"), `value` as a form wants it typed. */
export interface CopyField {
  label: string
  /** Null: the row is left out. */
  value: string | null
  shown?: string
}

/**
 * Facts as label → value rows, each value beside its own copy button: it
 * reads "Copy" beside the label that says what, and is named after it for
 * screen readers ("Copy IBAN", not one of six "Copy"s).
 */
export function CopyFields(props: { rows: readonly CopyField[] }) {
  return (
    <dl className="fields copy-fields">
      {props.rows.map(({ label, value, shown }) =>
        value ? (
          <div key={label} className="field-row">
            <dt>{label}</dt>
            <dd className="copy-value">
              <code className="address-text">{shown ?? value}</code>
              <CopyButton text={value} thing={label} short />
            </dd>
          </div>
        ) : null,
      )}
    </dl>
  )
}
