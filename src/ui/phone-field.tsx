import { useState } from 'react'
import { useI18n } from '../i18n/i18n.tsx'
import { useMiniApp } from '../telegram/mini-app.tsx'
import { Button } from './components.tsx'
import { defaultCountry, type LocalCountry } from './countries.ts'
import { CountryPicker, dialChoice, parseDialChoice } from './country-picker.tsx'
import { TextField } from './fields.tsx'
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
      <TelegramContact onPhone={(phone) => onChange({ choice: '', national: phone })} />
    </fieldset>
  )
}

type ContactState = 'idle' | 'asking' | 'refused' | 'timeout'

/**
 * In the Telegram Mini App: "Use my Telegram number" asks Telegram for the
 * person's contact and fills the number in whole ("+…", taken as typed).
 * Telegram gets 5 s (src/telegram/limits.ts); a refusal or silence says so
 * and leaves the field as it was. Outside Telegram, and where Telegram
 * cannot share contacts, it renders nothing.
 */
function TelegramContact(props: { onPhone: (phone: string) => void }) {
  const { t } = useI18n()
  const miniApp = useMiniApp()
  const [state, setState] = useState<ContactState>('idle')
  const requestContact = miniApp?.requestContact
  if (!requestContact) return null

  const ask = async () => {
    setState('asking')
    const result = await requestContact()
    if (result.status === 'shared') {
      const digits = result.contact.phone.replace(/\D/g, '')
      props.onPhone(`+${digits}`)
      setState('idle')
    } else {
      setState(result.status)
    }
  }

  return (
    <div className="stack">
      <Button variant="secondary" busy={state === 'asking'} onClick={ask}>
        {t('phone.telegramContact')}
      </Button>
      <p role="status" className="muted">
        {state === 'refused' && t('phone.telegramRefused')}
        {state === 'timeout' && t('phone.telegramTimeout')}
      </p>
    </div>
  )
}
