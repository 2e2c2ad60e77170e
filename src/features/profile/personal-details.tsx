import { type FormEvent, useState } from 'react'
import type { UserData } from '../../../contract/user.ts'
import type { MessageKey } from '../../i18n/en.ts'
import { fieldErrors } from '../../i18n/error-message.ts'
import { LANGUAGES, type Language, languageName, useI18n } from '../../i18n/i18n.tsx'
import { Button, Notice } from '../../ui/components.tsx'
import { useServedCountries } from '../../ui/countries.ts'
import { CountryPicker } from '../../ui/country-picker.tsx'
import { ErrorSummary } from '../../ui/error-summary.tsx'
import { SelectField, TextField } from '../../ui/fields.tsx'
import { useNeedsServer } from '../../ui/online.tsx'
import { useUnsavedChangesGuard } from '../../ui/unsaved-changes.ts'
import { useUpdateUserData } from './mutations.ts'
import {
  changes,
  type DetailsForm,
  missingAddressFields,
  pointerOf,
  toForm,
} from './user-data-form.ts'

type Outcome = 'saved' | 'unchanged' | undefined

/**
 * Name, birth date, address and language. The form keeps what was typed
 * while the query refreshes in the background; only a save (or "discard")
 * replaces it. Saving the language switches the app to it.
 */
export function PersonalDetails(props: { data: UserData }) {
  const { t, language, setLanguage } = useI18n()
  const update = useUpdateUserData()
  const [loaded, setLoaded] = useState(() => toForm(props.data, language))
  // The countries the tenant serves, and the saved one even when it is not among them.
  const { countries } = useServedCountries(loaded.country)
  const [form, setForm] = useState(loaded)
  const [checked, setChecked] = useState(false)
  const [outcome, setOutcome] = useState<Outcome>()
  const server = useNeedsServer()

  const patch = changes(loaded, form)
  const dirty = Object.keys(patch).length > 0
  useUnsavedChangesGuard(dirty, t('profile.unsaved'))

  const missing = checked ? missingAddressFields(form) : []
  const refused = fieldErrors(update.error, t)
  const errorOf = (field: keyof DetailsForm): string | undefined => {
    if (missing.includes(field as (typeof missing)[number])) return t('error.required')
    // A problem with the address as a whole is shown at its first field.
    return refused[pointerOf(field)] ?? (field === 'country' ? refused['/body/address'] : undefined)
  }

  const set = (field: keyof DetailsForm) => (value: string) => {
    setForm((current) => ({ ...current, [field]: value }))
    setOutcome(undefined)
  }

  const submit = (event: FormEvent) => {
    event.preventDefault()
    setChecked(true)
    if (update.isPending || server.offline || missingAddressFields(form).length > 0) return
    if (!dirty) {
      setOutcome('unchanged')
      return
    }
    update.mutate(patch, {
      onSuccess: (saved) => {
        const next = toForm(saved, form.language)
        setLoaded(next)
        setForm(next)
        setChecked(false)
        setOutcome('saved')
        if (saved.language && saved.language !== language) setLanguage(saved.language)
      },
    })
  }

  const text = (field: keyof DetailsForm, label: MessageKey, extra: object = {}) => (
    <TextField
      label={t(label)}
      name={field}
      value={form[field]}
      onChange={(event) => set(field)(event.target.value)}
      error={errorOf(field)}
      {...extra}
    />
  )

  return (
    <form className="stack" noValidate onSubmit={submit} aria-labelledby="personal-title">
      <h2 id="personal-title">{t('profile.personal')}</h2>
      <div className="grid-2">
        {text('first_name', 'profile.firstName', { autoComplete: 'given-name', maxLength: 100 })}
        {text('last_name', 'profile.lastName', { autoComplete: 'family-name', maxLength: 100 })}
      </div>
      {text('date_of_birth', 'profile.dateOfBirth', {
        type: 'date',
        autoComplete: 'bday',
        max: new Date().toISOString().slice(0, 10),
      })}
      <fieldset className="fieldset stack">
        <legend>{t('profile.address')}</legend>
        <CountryPicker
          kind="country"
          label={t('country.label')}
          value={form.country}
          onChange={set('country')}
          countries={countries}
          autoComplete="country"
          error={errorOf('country')}
        />
        {text('city', 'profile.city', { autoComplete: 'address-level2', maxLength: 100 })}
        {text('line1', 'profile.line1', { autoComplete: 'address-line1', maxLength: 200 })}
        {text('line2', 'profile.line2', { autoComplete: 'address-line2', maxLength: 200 })}
        <div className="grid-2">
          {text('postal_code', 'profile.postalCode', {
            autoComplete: 'postal-code',
            maxLength: 20,
          })}
          {text('state', 'profile.state', { autoComplete: 'address-level1', maxLength: 100 })}
        </div>
      </fieldset>
      <SelectField
        label={t('profile.language')}
        hint={t('profile.languageHint')}
        value={form.language}
        onChange={(event) => set('language')(event.target.value as Language)}
      >
        {LANGUAGES.map((code) => (
          <option key={code} value={code} lang={code}>
            {languageName(code)}
          </option>
        ))}
      </SelectField>
      <ErrorSummary error={update.error} />
      {outcome === 'saved' && <Notice>{t('profile.saved')}</Notice>}
      {outcome === 'unchanged' && <Notice>{t('profile.nothingToSave')}</Notice>}
      <div className="row">
        <Button type="submit" busy={update.isPending} {...server.disabledProps}>
          {update.isPending ? t('profile.saving') : t('profile.save')}
        </Button>
        {dirty && (
          <Button
            variant="secondary"
            onClick={() => {
              setForm(loaded)
              setChecked(false)
              update.reset()
            }}
          >
            {t('profile.discard')}
          </Button>
        )}
      </div>
      {server.reason}
    </form>
  )
}
