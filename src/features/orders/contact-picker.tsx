import { useQuery } from '@tanstack/react-query'
import { useEffect, useId, useState } from 'react'
import { CLAIM_DAYS } from '../../../contract/display-rules.ts'
import type { TransferTarget } from '../../../contract/transfers.ts'
import { useI18n } from '../../i18n/i18n.tsx'
import { Skeleton } from '../../ui/components.tsx'
import { useDebounced } from '../../ui/debounced.ts'
import { ErrorSummary } from '../../ui/error-summary.tsx'
import { TextField } from '../../ui/fields.tsx'
import { type Contact, contactOf, contactText } from './contact.ts'
import { lookupQuery, recentPeopleQuery } from './people-queries.ts'

/** Typing pauses this long before a contact is looked up: look-ups are counted per minute. */
const LOOKUP_DELAY_MS = 400

/** Who the money goes to, as the picker found them. */
export interface PickedPerson {
  to: TransferTarget
  /** Their display name when they let people find them, else the contact as typed. */
  name: string
  initial: string | null
  /** False: the money waits for the contact to sign up (seven days, then comes back). */
  found: boolean
}

/**
 * The "To" of a payment: the recent people first (one tap), or an e-mail,
 * a phone number or a Telegram @username typed — looked up once typing
 * pauses, the display name shown when they let people find them; else the
 * picker says the money will wait for them to sign up. A contact nobody has
 * and a hidden one read alike (the server answers them alike).
 */
export function ContactPicker(props: { onChange: (person: PickedPerson | undefined) => void }) {
  const { t } = useI18n()
  const [text, setText] = useState('')
  const [chosen, setChosen] = useState<string>()
  const recent = useQuery(recentPeopleQuery())
  const contact = useDebounced(contactOf(text), LOOKUP_DELAY_MS)
  const settled = contact !== undefined && sameContact(contact, contactOf(text))
  const lookup = useQuery({ ...lookupQuery(contact ?? { email: '' }), enabled: settled })
  const people = recent.data?.data ?? []
  const listId = useId()

  const picked: PickedPerson | undefined = (() => {
    if (text.trim() !== '') {
      if (!settled || !lookup.data) return undefined
      return lookup.data.found
        ? {
            to: contact,
            name: lookup.data.display_name ?? contactText(contact),
            initial: lookup.data.initial,
            found: true,
          }
        : { to: contact, name: contactText(contact), initial: null, found: false }
    }
    const person = people.find((candidate) => candidate.user_id === chosen)
    return person
      ? {
          to: { user_id: person.user_id },
          name: person.display_name,
          initial: person.initial,
          found: true,
        }
      : undefined
  })()
  const key = picked ? JSON.stringify(picked) : ''
  // biome-ignore lint/correctness/useExhaustiveDependencies: tells the form when who is picked changes, nothing else
  useEffect(() => props.onChange(picked), [key])

  const typedButInvalid = text.trim() !== '' && contactOf(text) === undefined
  return (
    <fieldset className="fieldset stack">
      <legend>{t('people.pay.to')}</legend>
      {people.length > 0 && (
        <fieldset className="contact-recent">
          <legend className="muted">{t('people.pay.recent')}</legend>
          {people.map((person) => (
            <label key={person.user_id} className="contact-person">
              <input
                type="radio"
                name={listId}
                className="visually-hidden"
                checked={text.trim() === '' && chosen === person.user_id}
                onChange={() => {
                  setText('')
                  setChosen(person.user_id)
                }}
              />
              <span className="person-avatar" aria-hidden="true">
                {person.initial}
              </span>
              <span className="contact-person-name">{person.display_name}</span>
            </label>
          ))}
        </fieldset>
      )}
      <TextField
        label={people.length > 0 ? t('people.pay.someoneElse') : t('people.pay.contact')}
        hint={t('people.pay.contactHint')}
        name="contact"
        autoComplete="off"
        autoCapitalize="off"
        spellCheck={false}
        value={text}
        onChange={(event) => {
          setText(event.target.value)
          setChosen(undefined)
        }}
        error={
          typedButInvalid && text.trim().length > 3 ? t('people.pay.contactInvalid') : undefined
        }
      />
      <div aria-live="polite">
        {text.trim() !== '' && contactOf(text) !== undefined && (
          <LookupResult
            pending={!settled || lookup.isPending}
            error={lookup.error}
            person={picked}
          />
        )}
      </div>
    </fieldset>
  )
}

const sameContact = (a: Contact, b: Contact | undefined) =>
  b !== undefined && JSON.stringify(a) === JSON.stringify(b)

function LookupResult(props: {
  pending: boolean
  error: unknown
  person: PickedPerson | undefined
}) {
  const { t } = useI18n()
  if (props.error) return <ErrorSummary error={props.error} />
  if (props.pending || !props.person) {
    return <Skeleton label={t('people.pay.looking')} shape="lines" count={1} />
  }
  const { person } = props
  if (person.found) {
    return (
      <p className="contact-found">
        <span className="person-avatar" aria-hidden="true">
          {person.initial}
        </span>
        <span>{t('people.pay.found', { name: person.name })}</span>
      </p>
    )
  }
  return (
    <p className="alert alert-warning">
      {t('people.pay.notFound', { contact: person.name, days: CLAIM_DAYS })}
    </p>
  )
}
