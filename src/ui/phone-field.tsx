import { useI18n } from '../i18n/i18n.tsx'
import { TextField } from './components.tsx'
import { defaultCountry, type LocalCountry } from './countries.ts'
import { CountryPicker, dialChoice, parseDialChoice } from './country-picker.tsx'
import { internationalPhone, type PhoneDraft } from './phone.ts'

/** The calling code in use: the one chosen, else the browser's region's, else the first. */
export function effectiveChoice(
  draft: PhoneDraft,
  countries: readonly LocalCountry[] | undefined,
): string {
  if (draft.choice || !countries) return draft.choice
  const country = defaultCountry(countries)
  return country?.dial_codes[0] ? dialChoice(country.code, country.dial_codes[0]) : ''
}

/** The full number a draft stands for, or the typed text alone when no code can be chosen. */
export function phoneFromDraft(
  draft: PhoneDraft,
  countries: readonly LocalCountry[] | undefined,
): string {
  const { country, dial } = parseDialChoice(effectiveChoice(draft, countries))
  return internationalPhone(dial, draft.national, country)
}

/**
 * A phone number as two fields: the country's calling code and the national
 * number. Without the list of countries the number can still be typed whole, with "+".
 */
export function PhoneField(props: {
  value: PhoneDraft
  onChange: (value: PhoneDraft) => void
  countries: readonly LocalCountry[] | undefined
  countriesFailed: boolean
  label: string
  error?: string
}) {
  const { t } = useI18n()
  const { value, onChange, countries } = props
  return (
    <fieldset className="fieldset phone-field">
      <legend className="visually-hidden">{props.label}</legend>
      {!props.countriesFailed && (
        <CountryPicker
          kind="dial"
          label={t('phone.country')}
          value={effectiveChoice(value, countries)}
          onChange={(choice) => onChange({ ...value, choice })}
          countries={countries}
          autoComplete="tel-country-code"
        />
      )}
      <TextField
        label={props.label}
        type="tel"
        name="phone"
        autoComplete="tel-national"
        inputMode="tel"
        required
        value={value.national}
        onChange={(event) => onChange({ ...value, national: event.target.value })}
        hint={props.countriesFailed ? t('phone.countriesFailed') : t('phone.numberHint')}
        error={props.error}
      />
    </fieldset>
  )
}
