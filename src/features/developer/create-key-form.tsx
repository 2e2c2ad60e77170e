import { type FormEvent, useId, useState } from 'react'
import type { ApiKeyWithSecret } from '../../../contract/developer.ts'
import { useI18n } from '../../i18n/i18n.tsx'
import { Button } from '../../ui/components.tsx'
import { ErrorSummary } from '../../ui/error-summary.tsx'
import { useNeedsServer } from '../../ui/online.tsx'
import { KeyFields } from './key-fields.tsx'
import { checkKeyForm, ipsOf, type KeyFormValues, refusedKeyFields } from './key-form.ts'
import { useCreateKey } from './mutations.ts'

const EMPTY: KeyFormValues = { name: '', role: 'READ_ONLY', ips: '' }

/** A new key: name, role, optional allow-list. The answer's secret goes to the caller, once. */
export function CreateKeyForm(props: {
  /** Disables the submit (offline, or a secret still on screen), with the reason's id. */
  submitProps: { disabled?: boolean; 'aria-describedby'?: string }
  onCreated: (key: ApiKeyWithSecret) => void
  onCancel: () => void
}) {
  const { t } = useI18n()
  const titleId = useId()
  const server = useNeedsServer()
  const create = useCreateKey()
  const [values, setValues] = useState(EMPTY)
  const [submitted, setSubmitted] = useState(false)
  const local = submitted ? checkKeyForm(values) : {}
  const problems = { ...refusedKeyFields(create.error), ...local }

  const submit = (event: FormEvent) => {
    event.preventDefault()
    setSubmitted(true)
    if (Object.keys(checkKeyForm(values)).length > 0) return
    create.mutate(
      { name: values.name.trim(), role: values.role, allowed_ips: ipsOf(values.ips) },
      {
        onSuccess: (key) => {
          create.reset()
          props.onCreated(key)
        },
      },
    )
  }

  return (
    <form className="card stack" aria-labelledby={titleId} onSubmit={submit} noValidate>
      <h2 id={titleId}>{t('dev.form.createTitle')}</h2>
      {create.isError && <ErrorSummary error={create.error} />}
      <KeyFields
        values={values}
        problems={problems}
        onChange={(next) => {
          if (create.isError) create.reset()
          setValues(next)
        }}
      />
      {server.reason}
      <div className="row">
        <Button type="submit" busy={create.isPending} {...props.submitProps}>
          {create.isPending ? t('dev.form.creating') : t('dev.form.create')}
        </Button>
        <Button variant="secondary" onClick={props.onCancel} disabled={create.isPending}>
          {t('action.cancel')}
        </Button>
      </div>
    </form>
  )
}
