import { useI18n } from '../i18n/i18n.tsx'
import type { LocalCountry } from './countries.ts'
import { SelectField } from './fields.tsx'

/** A calling-code choice: the country and one of its codes ("US:1", "DO:1809"). */
export const dialChoice = (country: string, dial: string) => `${country}:${dial}`
export const parseDialChoice = (value: string) => {
  const [country = '', dial = ''] = value.split(':')
  return { country, dial }
}

interface Props {
  /** "country": one option per country (an address); "dial": one per calling code (a phone). */
  kind: 'country' | 'dial'
  label: string
  /** A country code, or a dialChoice for "dial"; "" for none. */
  value: string
  onChange: (value: string) => void
  countries: readonly LocalCountry[] | undefined
  hint?: string
  error?: string
  required?: boolean
  autoComplete?: string
}

/**
 * The one country picker: a native select (keyboard, screen readers and
 * type-to-search come with it), countries named in the person's language with
 * their flag, and "+code" where a phone needs one.
 */
export function CountryPicker({ kind, label, value, onChange, countries, ...field }: Props) {
  const { t } = useI18n()
  if (!countries) {
    return (
      <SelectField label={label} value="" disabled aria-busy="true" hint={field.hint}>
        <option value="">{t('country.loading')}</option>
      </SelectField>
    )
  }
  return (
    <SelectField
      label={label}
      value={value}
      onChange={(event) => onChange(event.target.value)}
      {...field}
    >
      {kind === 'country' && <option value="">{t('country.choose')}</option>}
      {countries.flatMap((country) =>
        kind === 'country' ? (
          <option key={country.code} value={country.code}>
            {`${country.flag} ${country.localName}`}
          </option>
        ) : (
          country.dial_codes.map((dial) => (
            <option key={dialChoice(country.code, dial)} value={dialChoice(country.code, dial)}>
              {`${country.flag} ${country.localName} +${dial}`}
            </option>
          ))
        ),
      )}
    </SelectField>
  )
}
