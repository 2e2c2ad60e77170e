import { type FormEvent, useEffect, useId, useRef, useState } from 'react'
import type { MessageKey } from '../../i18n/en.ts'
import { useI18n } from '../../i18n/i18n.tsx'
import { Button } from '../../ui/components.tsx'
import { useCountries } from '../../ui/countries.ts'
import { CountryPicker } from '../../ui/country-picker.tsx'
import { TextField } from '../../ui/fields.tsx'
import {
  type AddressFault,
  type AddressField,
  addressFaults,
  type DeliveryAddress,
  MAX_LENGTH,
} from './delivery.ts'
import { StepFrame } from './new-card-step-frame.tsx'

const FIELD_LABEL: Record<Exclude<AddressField, 'country'>, MessageKey> = {
  recipient_name: 'cards.address.recipient',
  line1: 'cards.address.line1',
  line2: 'cards.address.line2',
  city: 'cards.address.city',
  postal_code: 'cards.address.postalCode',
}
/** The fields in the order the form shows them. */
const ADDRESS_ORDER: AddressField[] = [...(Object.keys(FIELD_LABEL) as AddressField[]), 'country']
const AUTOCOMPLETE: Record<AddressField, string> = {
  recipient_name: 'shipping name',
  line1: 'shipping address-line1',
  line2: 'shipping address-line2',
  city: 'shipping address-level2',
  postal_code: 'shipping postal-code',
  country: 'shipping country',
}

/** A physical card's step: where it is delivered, checked here and marked where the server refused it. */
export function NewCardAddressStep(props: {
  focus: boolean
  address: DeliveryAddress
  onChange: (address: DeliveryAddress) => void
  serverFaults: AddressField[]
  onBack: () => void
  onNext: () => void
}) {
  const { t } = useI18n()
  const { countries } = useCountries()
  const [faults, setFaults] = useState<Partial<Record<AddressField, AddressFault>>>({})
  const inputs = useRef<Partial<Record<AddressField, HTMLInputElement | null>>>({})
  // The server's word on a field holds until that field is edited.
  const [serverFaults, setServerFaults] = useState(() => new Set(props.serverFaults))
  const countryId = useId()

  const focusField = (field: AddressField) => {
    if (field === 'country') document.getElementById(countryId)?.querySelector('select')?.focus()
    else inputs.current[field]?.focus()
  }
  // biome-ignore lint/correctness/useExhaustiveDependencies: once, for the faults the step opened with
  useEffect(() => {
    const first = ADDRESS_ORDER.find((field) => props.serverFaults.includes(field))
    if (first) focusField(first)
  }, [])

  const set = (field: AddressField, value: string) => {
    props.onChange({ ...props.address, [field]: value })
    setFaults((current) => ({ ...current, [field]: undefined }))
    setServerFaults((current) => new Set([...current].filter((item) => item !== field)))
  }
  const message = (field: AddressField) => {
    const fault = faults[field]
    if (fault) return t(`cards.address.${fault}`)
    return serverFaults.has(field) ? t('cards.address.invalid') : undefined
  }

  const submit = (event: FormEvent) => {
    event.preventDefault()
    const found = addressFaults(props.address)
    setFaults(found)
    const first = ADDRESS_ORDER.find((field) => found[field])
    if (first) focusField(first)
    else props.onNext()
  }

  return (
    <StepFrame
      title={t('cards.new.stepAddress')}
      focus={props.focus}
      primary={{ text: t('cards.new.continue'), enabled: true, busy: false }}
      onSubmit={submit}
    >
      <p className="muted">{t('cards.address.lead')}</p>
      {(Object.keys(FIELD_LABEL) as Exclude<AddressField, 'country'>[]).map((field) => (
        <TextField
          key={field}
          ref={(element) => {
            inputs.current[field] = element
          }}
          label={t(FIELD_LABEL[field])}
          value={props.address[field] ?? ''}
          autoComplete={AUTOCOMPLETE[field]}
          required={field !== 'line2'}
          maxLength={MAX_LENGTH[field]}
          onChange={(event) => set(field, event.target.value)}
          error={message(field)}
        />
      ))}
      <div id={countryId}>
        <CountryPicker
          kind="country"
          label={t('cards.address.country')}
          value={props.address.country}
          onChange={(value) => set('country', value)}
          countries={countries}
          required
          autoComplete={AUTOCOMPLETE.country}
          error={message('country')}
        />
      </div>
      <div className="row">
        <Button variant="secondary" onClick={props.onBack}>
          {t('cards.new.back')}
        </Button>
        <Button type="submit">{t('cards.new.continue')}</Button>
      </div>
    </StepFrame>
  )
}
