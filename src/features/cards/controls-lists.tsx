import { useState } from 'react'
import { CONTROL_INTERVALS, type ControlInterval } from '../../../contract/card-choices.ts'
import type { CategoryLimit } from '../../../contract/card-controls.ts'
import {
  MERCHANT_CATEGORIES,
  MERCHANT_CATEGORY_GROUPS,
  type MerchantCategoryGroup,
} from '../../../contract/merchant-categories.ts'
import { normaliseName } from '../../../contract/names.ts'
import type { MessageKey } from '../../i18n/en.ts'
import { useI18n } from '../../i18n/i18n.tsx'
import { formatMoney } from '../../i18n/money.ts'
import { Button } from '../../ui/components.tsx'
import { useCountries } from '../../ui/countries.ts'
import { CountryPicker } from '../../ui/country-picker.tsx'
import { SelectField, TextField } from '../../ui/fields.tsx'
import { FIAT_DECIMALS, validAmount } from './card-settings.tsx'

/*
 * The lists inside a card's controls (issue 30): countries, merchants and
 * category limits, each a list with "Remove" per entry and a way to add one.
 * They change the draft only; the controls form saves the whole set.
 */

/** A window's name on its own, as the card's limits say it ("Per day"). */
const WINDOW_NAMES: Record<ControlInterval, MessageKey> = {
  transaction: 'cards.limits.now.per_transaction',
  day: 'cards.limits.now.daily',
  month: 'cards.limits.now.monthly',
}

/** The contract's cap on blocked merchants. */
const MAX_MERCHANTS = 50

/** Each entry with its own "Remove …" button, named after the entry for screen readers. */
function Entries(props: {
  entries: { key: string; label: string }[]
  empty: string
  onRemove: (key: string) => void
}) {
  const { t } = useI18n()
  if (props.entries.length === 0) return <p className="muted">{props.empty}</p>
  return (
    <ul className="controls-entries">
      {props.entries.map((entry) => (
        <li key={entry.key}>
          <span>{entry.label}</span>
          <Button
            variant="quiet"
            aria-label={t('cards.controls.remove', { what: entry.label })}
            onClick={() => props.onRemove(entry.key)}
          >
            {t('cards.controls.removeShort')}
          </Button>
        </li>
      ))}
    </ul>
  )
}

/** Countries by code, named in the person's language, added with the one country picker. */
export function CountryList(props: {
  legend: string
  empty: string
  codes: string[]
  disabled: boolean
  onChange: (codes: string[]) => void
}) {
  const { t } = useI18n()
  const { countries } = useCountries()
  const [chosen, setChosen] = useState('')
  const nameOf = (code: string) =>
    countries?.find((country) => country.code === code)?.localName ?? code
  return (
    <fieldset className="controls-group" disabled={props.disabled}>
      <legend>{props.legend}</legend>
      <Entries
        entries={props.codes.map((code) => ({ key: code, label: nameOf(code) }))}
        empty={props.empty}
        onRemove={(code) => props.onChange(props.codes.filter((other) => other !== code))}
      />
      <div className="controls-add">
        <CountryPicker
          kind="country"
          label={t('cards.controls.country')}
          value={chosen}
          onChange={setChosen}
          countries={countries?.filter((country) => !props.codes.includes(country.code))}
        />
        <Button
          variant="secondary"
          disabled={chosen === ''}
          onClick={() => {
            props.onChange([...props.codes, chosen])
            setChosen('')
          }}
        >
          {t('cards.controls.add')}
        </Button>
      </div>
    </fieldset>
  )
}

/** Merchants by name; the server compares them case- and space-insensitively, so does this. */
export function MerchantList(props: {
  names: string[]
  disabled: boolean
  onChange: (names: string[]) => void
}) {
  const { t } = useI18n()
  const [name, setName] = useState('')
  const [fault, setFault] = useState<'empty' | 'many'>()
  const add = () => {
    const kept = normaliseName(name).replace(/\s+/gu, ' ')
    if (kept === '') return setFault('empty')
    if (props.names.length >= MAX_MERCHANTS) return setFault('many')
    const key = kept.toLocaleLowerCase()
    if (!props.names.some((other) => other.toLocaleLowerCase() === key)) {
      props.onChange([...props.names, kept])
    }
    setFault(undefined)
    setName('')
  }
  return (
    <fieldset className="controls-group" disabled={props.disabled}>
      <legend>{t('cards.controls.merchants')}</legend>
      <Entries
        entries={props.names.map((merchant) => ({ key: merchant, label: merchant }))}
        empty={t('cards.controls.noMerchants')}
        onRemove={(merchant) => props.onChange(props.names.filter((other) => other !== merchant))}
      />
      <div className="controls-add">
        <TextField
          label={t('cards.controls.merchant')}
          value={name}
          maxLength={100}
          onChange={(event) => setName(event.target.value)}
          onKeyDown={(event) => {
            // Enter adds the name here, not the whole form.
            if (event.key === 'Enter') {
              event.preventDefault()
              add()
            }
          }}
          error={fault && t(`cards.controls.merchantFault.${fault}`)}
        />
        <Button variant="secondary" onClick={add}>
          {t('cards.controls.add')}
        </Button>
      </div>
    </fieldset>
  )
}

/** At most one cap per category and window: adding one that exists replaces its amount. */
export function CategoryLimits(props: {
  currency: string
  limits: CategoryLimit[]
  disabled: boolean
  onChange: (limits: CategoryLimit[]) => void
}) {
  const { t, language } = useI18n()
  const [category, setCategory] = useState<MerchantCategoryGroup>('travel')
  const [interval, setWindowOf] = useState<ControlInterval>('day')
  const [amount, setAmount] = useState('')
  const [invalid, setInvalid] = useState(false)
  const keyOf = (limit: Pick<CategoryLimit, 'category' | 'interval'>) =>
    `${limit.category}:${limit.interval}`
  const add = () => {
    const value = amount.trim()
    if (!validAmount(value, FIAT_DECIMALS)) return setInvalid(true)
    const limit = { category, interval, amount: value }
    props.onChange([...props.limits.filter((other) => keyOf(other) !== keyOf(limit)), limit])
    setInvalid(false)
    setAmount('')
  }
  return (
    <fieldset className="controls-group" disabled={props.disabled}>
      <legend>{t('cards.controls.limits')}</legend>
      <Entries
        entries={props.limits.map((limit) => ({
          key: keyOf(limit),
          label: t('cards.controls.limit', {
            category: MERCHANT_CATEGORIES[limit.category].names[language],
            amount: formatMoney(language, {
              amount: limit.amount,
              currency: props.currency,
              chain: null,
            }),
            interval: t(`cards.controls.interval.${limit.interval}`),
          }),
        }))}
        empty={t('cards.controls.noLimits')}
        onRemove={(key) => props.onChange(props.limits.filter((other) => keyOf(other) !== key))}
      />
      <div className="controls-add controls-add-limit">
        <SelectField
          label={t('cards.controls.category')}
          value={category}
          onChange={(event) => setCategory(event.target.value as MerchantCategoryGroup)}
        >
          {MERCHANT_CATEGORY_GROUPS.map((group) => (
            <option key={group} value={group}>
              {MERCHANT_CATEGORIES[group].names[language]}
            </option>
          ))}
        </SelectField>
        <SelectField
          label={t('cards.controls.window')}
          value={interval}
          onChange={(event) => setWindowOf(event.target.value as ControlInterval)}
        >
          {CONTROL_INTERVALS.map((window) => (
            <option key={window} value={window}>
              {t(WINDOW_NAMES[window])}
            </option>
          ))}
        </SelectField>
        <TextField
          label={t('cards.controls.amount', { currency: props.currency })}
          adornment={props.currency}
          inputMode="decimal"
          value={amount}
          onChange={(event) => setAmount(event.target.value)}
          error={invalid ? t('cards.limits.amount') : undefined}
        />
        <Button variant="secondary" onClick={add}>
          {t('cards.controls.addLimit')}
        </Button>
      </div>
    </fieldset>
  )
}
