import { type FormEvent, useEffect, useRef, useState } from 'react'
import type { Counterparty, CounterpartyType } from '../../../contract/counterparties.ts'
import type { MessageKey } from '../../i18n/en.ts'
import { useI18n } from '../../i18n/i18n.tsx'
import { Button } from '../../ui/components.tsx'
import { useCountries } from '../../ui/countries.ts'
import { CountryPicker } from '../../ui/country-picker.tsx'
import { TextField } from '../../ui/fields.tsx'
import { useNeedsServer } from '../../ui/online.tsx'
import type { PhoneDraft } from '../../ui/phone.ts'
import { effectiveChoice, phoneFromDraft } from '../../ui/phone-field.tsx'
import { useUnsavedChangesGuard } from '../../ui/unsaved-changes.ts'
import {
  type CounterpartyField,
  type CounterpartyForm,
  changes,
  counterpartyProblems,
  createBody,
  emptyCounterparty,
  fieldOfPointer,
  refusedMessage,
  toForm,
  visibleFields,
} from './counterparty-form.ts'
import { FieldSlot, FormProblems, refusedFields, useFormCheck } from './form-check.tsx'
import { COUNTERPARTY_TYPES, counterpartyTypeLabel } from './labels.ts'
import { useCreateCounterparty, useUpdateCounterparty } from './mutations.ts'

const LABELS: Record<CounterpartyField, MessageKey> = {
  first_name: 'cp.field.firstName',
  last_name: 'cp.field.lastName',
  legal_name: 'cp.field.legalName',
  country: 'cp.field.country',
  email: 'cp.field.email',
  phone: 'cp.field.phone',
  line1: 'cp.field.line1',
  line2: 'cp.field.line2',
  city: 'cp.field.city',
  postal_code: 'cp.field.postalCode',
  state: 'cp.field.state',
}

// Someone else's details: the browser's autofill would offer the person's own.
const INPUT: Partial<Record<CounterpartyField, { autoComplete: string; maxLength: number }>> = {
  first_name: { autoComplete: 'off', maxLength: 100 },
  last_name: { autoComplete: 'off', maxLength: 100 },
  legal_name: { autoComplete: 'off', maxLength: 200 },
  line1: { autoComplete: 'off', maxLength: 200 },
  line2: { autoComplete: 'off', maxLength: 200 },
  city: { autoComplete: 'off', maxLength: 100 },
  postal_code: { autoComplete: 'off', maxLength: 20 },
  state: { autoComplete: 'off', maxLength: 100 },
}

/** What no payment rail needs: asked for only when the person opens them. */
const EXTRAS = ['email', 'phone', 'line1', 'line2', 'city', 'postal_code', 'state'] as const

/**
 * Adds a counterparty, or edits one (`counterparty` given; its type is then
 * fixed: the API cannot change it). Problems show when a field is left and
 * all at once on submit, with the summary focused; the server's 422 lands on
 * the fields it names. Leaving with unsaved changes asks first.
 */
export function CounterpartyEditor(props: {
  walletUuid: string
  counterparty?: Counterparty
  labelledBy: string
  onSaved: (saved: Counterparty) => void
  onCancel: () => void
}) {
  const { t } = useI18n()
  const editing = props.counterparty
  const { countries, isError: countriesFailed } = useCountries()
  const [loaded] = useState(() => (editing ? toForm(editing) : emptyCounterparty()))
  const [form, setForm] = useState(loaded)
  const [phone, setPhone] = useState<PhoneDraft>({ choice: '', national: loaded.phone })
  // Contacts and an address are extras no rail needs: folded unless the counterparty has some.
  const [moreOpen, setMoreOpen] = useState(() => EXTRAS.some((field) => loaded[field].trim()))
  const check = useFormCheck<CounterpartyField>()
  const create = useCreateCounterparty(props.walletUuid)
  const update = useUpdateCounterparty(props.walletUuid, editing?.counterparty_account_id ?? '')
  const save = editing ? update : create
  const server = useNeedsServer()
  const formRef = useRef<HTMLFormElement>(null)

  // Opened in place of the details: focus goes to its first field, where the editing starts.
  // biome-ignore lint/correctness/useExhaustiveDependencies: only when the editor opens.
  useEffect(() => {
    if (editing) formRef.current?.querySelector<HTMLElement>('input, select')?.focus()
  }, [])

  const typed: CounterpartyForm = {
    ...form,
    phone: phone.national.trim() ? phoneFromDraft(phone, countries) : '',
  }
  const problems = counterpartyProblems(typed, phone.national)
  const patch = changes(loaded, typed)
  const dirty = Object.keys(patch).length > 0
  useUnsavedChangesGuard(dirty, t('cp.unsaved'))

  const set = (field: CounterpartyField) => (value: string) => {
    setForm((current) => ({ ...current, [field]: value }))
    check.edited(field)
  }
  const errorOf = (field: CounterpartyField) => check.errorOf(problems, field)

  const cancel = () => {
    if (!dirty || window.confirm(t('cp.unsaved'))) props.onCancel()
  }

  const submit = (event: FormEvent) => {
    event.preventDefault()
    if (save.isPending || server.offline || !check.passes(problems)) return
    const onError = (error: unknown) =>
      check.refused(refusedFields(error, fieldOfPointer, refusedMessage))
    if (!editing) {
      create.mutate(createBody(typed), { onSuccess: props.onSaved, onError })
    } else if (!dirty) {
      props.onCancel()
    } else {
      update.mutate(patch, { onSuccess: props.onSaved, onError })
    }
  }

  const text = (field: CounterpartyField, extra: object = {}) => (
    <FieldSlot field={field} onLeave={() => check.touch(field)}>
      <TextField
        label={t(LABELS[field])}
        name={field}
        value={form[field]}
        onChange={(event) => set(field)(event.target.value)}
        error={errorOf(field)}
        {...INPUT[field]}
        {...extra}
      />
    </FieldSlot>
  )

  // A refused extra opens them: its message and the summary's link lead into the fold.
  const extrasWrong = check.attempt > 0 && EXTRAS.some((field) => problems[field])
  const lines = check.summary(
    problems,
    visibleFields(form.type).map((field) => ({ field, label: t(LABELS[field]) })),
  )

  return (
    <form
      ref={formRef}
      className="stack"
      noValidate
      onSubmit={submit}
      aria-labelledby={props.labelledBy}
    >
      <FormProblems attempt={check.attempt} error={save.error} lines={lines} />
      {!editing && (
        <fieldset className="fieldset">
          <legend>{t('cp.field.type')}</legend>
          <div className="cp-segments">
            {COUNTERPARTY_TYPES.map((type) => (
              <label key={type} className="cp-segment">
                <input
                  type="radio"
                  name="type"
                  value={type}
                  checked={form.type === type}
                  onChange={() =>
                    setForm((current) => ({ ...current, type: type as CounterpartyType }))
                  }
                />
                <span>{counterpartyTypeLabel(t, type)}</span>
              </label>
            ))}
          </div>
        </fieldset>
      )}
      {form.type === 'INDIVIDUAL' ? (
        <div className="grid-2">
          {text('first_name')}
          {text('last_name')}
        </div>
      ) : (
        text('legal_name', { hint: t('cp.field.legalNameHint') })
      )}
      <FieldSlot field="country" onLeave={() => check.touch('country')}>
        <CountryPicker
          kind="country"
          label={t(LABELS.country)}
          hint={t(
            form.type === 'INDIVIDUAL' ? 'cp.field.countryHint' : 'cp.field.countryHintBusiness',
          )}
          value={form.country}
          onChange={set('country')}
          countries={countries}
          error={errorOf('country')}
          required
        />
      </FieldSlot>
      <details
        className="more-details"
        open={moreOpen || extrasWrong}
        onToggle={(event) => setMoreOpen(event.currentTarget.open)}
      >
        <summary>{t('cp.field.more')}</summary>
        <div className="stack cp-more-fields">
          {text('email', {
            type: 'email',
            inputMode: 'email',
            autoComplete: 'off',
            maxLength: 254,
          })}
          <FieldSlot field="phone" onLeave={() => check.touch('phone')}>
            <fieldset className="fieldset phone-field">
              <legend className="visually-hidden">{t(LABELS.phone)}</legend>
              {!countriesFailed && (
                <CountryPicker
                  kind="dial"
                  label={t('phone.country')}
                  value={effectiveChoice(phone, countries)}
                  onChange={(choice) => setPhone((current) => ({ ...current, choice }))}
                  countries={countries}
                />
              )}
              <TextField
                label={t(LABELS.phone)}
                type="tel"
                name="phone"
                inputMode="tel"
                autoComplete="off"
                value={phone.national}
                onChange={(event) => {
                  const national = event.target.value
                  setPhone((current) => ({ ...current, national }))
                  check.edited('phone')
                }}
                hint={countriesFailed ? t('phone.countriesFailed') : t('phone.numberHint')}
                error={errorOf('phone')}
              />
            </fieldset>
          </FieldSlot>
          <fieldset className="fieldset stack">
            <legend>{t('cp.field.address')}</legend>
            <p className="field-hint cp-legend-hint">{t('cp.field.addressHint')}</p>
            {text('line1')}
            {text('line2')}
            <div className="grid-2">
              {text('city')}
              {text('postal_code')}
            </div>
            {text('state')}
          </fieldset>
        </div>
      </details>
      <div className="row">
        <Button type="submit" busy={save.isPending} {...server.disabledProps}>
          {save.isPending ? t('cp.saving') : editing ? t('cp.saveChanges') : t('cp.create')}
        </Button>
        <Button variant="quiet" onClick={cancel}>
          {t('action.cancel')}
        </Button>
      </div>
      {server.reason}
    </form>
  )
}
