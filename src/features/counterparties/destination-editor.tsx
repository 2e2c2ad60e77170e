import { useQuery } from '@tanstack/react-query'
import { type FormEvent, type ReactNode, useEffect, useId, useRef, useState } from 'react'
import type { Destination, DestinationType } from '../../../contract/counterparties.ts'
import type { MessageKey } from '../../i18n/en.ts'
import { type Translate, useI18n } from '../../i18n/i18n.tsx'
import { ApiError } from '../../net/api.ts'
import { chainsQuery } from '../../queries/wallets.ts'
import { Button } from '../../ui/components.tsx'
import { useCountries } from '../../ui/countries.ts'
import { CountryPicker } from '../../ui/country-picker.tsx'
import { SelectField, TextField } from '../../ui/fields.tsx'
import { useNeedsServer } from '../../ui/online.tsx'
import { useUnsavedChangesGuard } from '../../ui/unsaved-changes.ts'
import {
  createDestinationBody,
  type DestinationField,
  type DestinationInput,
  destinationChanges,
  destinationFieldOf,
  destinationProblems,
  emptyDestination,
  fieldsOf,
  isRequired,
  refusedDestinationMessage,
  toDestinationForm,
} from './destination-form.ts'
import { FieldSlot, FormProblems, refusedFields, useFormCheck } from './form-check.tsx'
import { IbanField } from './iban-field.tsx'
import {
  accountTypeLabel,
  BANK_ACCOUNT_TYPES,
  DESTINATION_TYPES,
  destinationFieldName,
  railLabel,
} from './labels.ts'
import { useCreateDestination, useUpdateDestination } from './mutations.ts'

/**
 * A field's label in the form: its name, marked optional where the rail does
 * not need it. SWIFT needs an IBAN or an account number, so each says so.
 */
function formLabel(t: Translate, type: DestinationType | '', field: DestinationInput): string {
  if (field === 'type') return t('cp.dest.type')
  if (type === 'SWIFT' && field === 'iban') return t('cp.dest.ibanSwift')
  if (type === 'SWIFT' && field === 'account_number') return t('cp.dest.accountNumberSwift')
  const name = destinationFieldName(t, field)
  return !type || isRequired(type, field) ? name : t('cp.optional', { name })
}

const HINTS: Partial<Record<DestinationField, MessageKey>> = {
  iban: 'cp.dest.ibanHint',
  bic: 'cp.dest.bicHint',
  routing_number: 'cp.dest.routingHint',
  wallet_uuid: 'cp.dest.walletUuidHint',
  label: 'cp.dest.labelHint',
}

/**
 * Adds a destination (rail first, then only that rail's fields) or edits one
 * (`destination` given: the rail is fixed). Cheap checks run as fields are
 * left and on submit; the server's verdict (422) lands on the field it names.
 * The heading takes focus when the editor opens.
 */
export function DestinationEditor(props: {
  walletUuid: string
  counterpartyId: string
  destination?: Destination
  onSaved: (saved: Destination) => void
  onCancel: () => void
}) {
  const { t } = useI18n()
  const titleId = useId()
  const heading = useRef<HTMLHeadingElement>(null)
  const editing = props.destination
  const [loaded] = useState(() => (editing ? toDestinationForm(editing) : emptyDestination()))
  const [form, setForm] = useState(loaded)
  const check = useFormCheck<DestinationInput>()
  const create = useCreateDestination(props.walletUuid, props.counterpartyId)
  const update = useUpdateDestination(
    props.walletUuid,
    props.counterpartyId,
    editing?.counterparty_destination_id ?? '',
  )
  const save = editing ? update : create
  const server = useNeedsServer()
  const chains = useQuery({ ...chainsQuery(), enabled: form.type === 'CRYPTO_EXTERNAL' })
  const { countries } = useCountries()

  useEffect(() => {
    heading.current?.focus()
  }, [])

  const addressFormat = chains.data?.data.find((chain) => chain.id === form.chain)?.address_format
  const problems = destinationProblems(form, {
    addressFormat,
    loaded: editing ? loaded : undefined,
    walletUuid: props.walletUuid,
  })
  const patch = destinationChanges(
    editing ? loaded : { ...emptyDestination(), type: form.type },
    form,
  )
  const dirty = Object.keys(patch).length > 0
  useUnsavedChangesGuard(dirty, t('cp.unsaved'))

  const set = (field: DestinationInput) => (value: string) => {
    setForm((current) => ({ ...current, [field]: value }))
    check.edited(field)
  }
  const errorOf = (field: DestinationInput) => check.errorOf(problems, field)
  const label = (field: DestinationInput) => formLabel(t, form.type, field)

  const cancel = () => {
    if (!dirty || window.confirm(t('cp.unsaved'))) props.onCancel()
  }

  const submit = (event: FormEvent) => {
    event.preventDefault()
    if (save.isPending || server.offline || !check.passes(problems)) return
    const onError = (error: unknown) =>
      check.refused(refusedFields(error, destinationFieldOf, refusedDestinationMessage))
    if (!editing) {
      create.mutate(createDestinationBody(form), { onSuccess: props.onSaved, onError })
    } else if (!dirty) {
      props.onCancel()
    } else {
      update.mutate(patch, { onSuccess: props.onSaved, onError })
    }
  }

  const slot = (field: DestinationField, control: ReactNode) => (
    <FieldSlot key={field} field={field} onLeave={() => check.touch(field)}>
      {control}
    </FieldSlot>
  )

  const text = (field: DestinationField, extra: object = {}) =>
    slot(
      field,
      <TextField
        label={label(field)}
        name={field}
        value={form[field]}
        onChange={(event) => set(field)(event.target.value)}
        hint={HINTS[field] && t(HINTS[field])}
        error={errorOf(field)}
        autoComplete="off"
        spellCheck={false}
        {...extra}
      />,
    )

  const control = (field: DestinationField) => {
    switch (field) {
      case 'iban':
        return slot(
          field,
          <IbanField
            label={label(field)}
            name={field}
            value={form.iban}
            onChange={set('iban')}
            hint={t('cp.dest.ibanHint')}
            error={errorOf(field)}
          />,
        )
      case 'bic':
        return text(field, { maxLength: 11, autoCapitalize: 'characters', className: 'cp-mono' })
      case 'routing_number':
        return text(field, { inputMode: 'numeric', maxLength: 9, className: 'cp-mono' })
      case 'account_number':
        return text(field, {
          inputMode: form.type === 'SWIFT' ? 'text' : 'numeric',
          maxLength: form.type === 'SWIFT' ? 64 : 17,
          className: 'cp-mono',
        })
      case 'account_type':
        return slot(
          field,
          <SelectField
            label={label(field)}
            name={field}
            value={form.account_type}
            onChange={(event) => set(field)(event.target.value)}
            error={errorOf(field)}
          >
            <option value="">{t('cp.dest.chooseAccountType')}</option>
            {BANK_ACCOUNT_TYPES.map((type) => (
              <option key={type} value={type}>
                {accountTypeLabel(t, type)}
              </option>
            ))}
          </SelectField>,
        )
      case 'bank_country':
        return slot(
          field,
          <CountryPicker
            kind="country"
            label={label(field)}
            value={form.bank_country}
            onChange={set(field)}
            countries={countries}
            error={errorOf(field)}
            required
          />,
        )
      case 'chain':
        return slot(
          field,
          <SelectField
            label={label(field)}
            name={field}
            value={form.chain}
            disabled={!chains.data}
            aria-busy={chains.isPending || undefined}
            onChange={(event) => set(field)(event.target.value)}
            error={errorOf(field)}
            hint={chains.isError ? t('cp.dest.chainsFailed') : undefined}
          >
            <option value="">{chains.data ? t('cp.dest.chooseChain') : t('app.loading')}</option>
            {chains.data?.data.map((chain) => (
              <option key={chain.id} value={chain.id}>
                {chain.name}
              </option>
            ))}
          </SelectField>,
        )
      case 'address':
        return text(field, { maxLength: 128, className: 'cp-mono' })
      case 'wallet_uuid':
        return text(field, { maxLength: 36, className: 'cp-mono' })
      case 'bank_name':
        return text(field, { maxLength: 200 })
      case 'label':
        return text(field, { maxLength: 100 })
    }
  }

  const lines = check.summary(
    problems,
    (['type', ...fieldsOf(form.type)] as DestinationInput[]).map((field) => ({
      field,
      label: label(field),
    })),
  )

  return (
    <form className="stack cp-editor" noValidate onSubmit={submit} aria-labelledby={titleId}>
      <h3 id={titleId} ref={heading} tabIndex={-1}>
        {editing
          ? t('cp.dest.editTitle', { name: editing.label ?? railLabel(t, editing.type) })
          : t('cp.dest.addTitle')}
      </h3>
      <FormProblems
        attempt={check.attempt}
        error={save.error}
        lines={lines}
        wording={(error) =>
          // An order in progress pays to it: until it ends only the name may change.
          error instanceof ApiError && error.code === 'DESTINATION_IN_USE'
            ? t('cp.dest.inUseEdit')
            : undefined
        }
      />
      {editing ? (
        <p>
          <span className="muted">{t('cp.dest.type')}: </span>
          {railLabel(t, editing.type)}
        </p>
      ) : (
        <FieldSlot field="type" onLeave={() => check.touch('type')}>
          <SelectField
            label={t('cp.dest.type')}
            name="type"
            value={form.type}
            onChange={(event) => set('type')(event.target.value)}
            error={errorOf('type')}
            hint={form.type ? t(`cp.rail.${form.type}.hint`) : undefined}
          >
            <option value="">{t('cp.dest.chooseType')}</option>
            {DESTINATION_TYPES.map((type) => (
              <option key={type} value={type}>
                {railLabel(t, type)}
              </option>
            ))}
          </SelectField>
        </FieldSlot>
      )}
      {fieldsOf(form.type).map(control)}
      <div className="row">
        <Button type="submit" busy={save.isPending} {...server.disabledProps}>
          {save.isPending ? t('cp.saving') : editing ? t('cp.saveChanges') : t('cp.dest.add')}
        </Button>
        <Button variant="quiet" onClick={cancel}>
          {t('action.cancel')}
        </Button>
      </div>
      {server.reason}
    </form>
  )
}
