import { useId } from 'react'
import { API_KEY_ROLES, type ApiKeyRole } from '../../../contract/api-key-roles.ts'
import { useI18n } from '../../i18n/i18n.tsx'
import { SelectField, TextField } from '../../ui/fields.tsx'
import type { FieldProblem, KeyFormProblems, KeyFormValues } from './key-form.ts'

/** The name, role and allow-list of a key: the fields the create and edit forms share. */
export function KeyFields(props: {
  values: KeyFormValues
  problems: KeyFormProblems
  onChange: (values: KeyFormValues) => void
}) {
  const { t } = useI18n()
  const ipsId = useId()
  const { values, problems } = props
  const text = (problem: FieldProblem | undefined) => problem && t(problem.key, problem.params)
  const set = (change: Partial<KeyFormValues>) => props.onChange({ ...values, ...change })
  const ipsError = text(problems.ips)
  return (
    <>
      <TextField
        label={t('dev.form.name')}
        hint={t('dev.form.nameHint')}
        value={values.name}
        maxLength={100}
        required
        error={text(problems.name)}
        onChange={(event) => set({ name: event.target.value })}
      />
      <SelectField
        label={t('dev.form.role')}
        hint={t(`dev.roleHint.${values.role}`)}
        value={values.role}
        onChange={(event) => set({ role: event.target.value as ApiKeyRole })}
      >
        {API_KEY_ROLES.map((role) => (
          <option key={role} value={role}>
            {t(`dev.role.${role}`)}
          </option>
        ))}
      </SelectField>
      <div className="field">
        <label htmlFor={ipsId}>{t('dev.form.ips')}</label>
        <textarea
          id={ipsId}
          className="dev-ips"
          rows={3}
          spellCheck={false}
          autoCapitalize="off"
          value={values.ips}
          aria-invalid={ipsError ? true : undefined}
          aria-describedby={`${ipsId}-hint${ipsError ? ` ${ipsId}-error` : ''}`}
          onChange={(event) => set({ ips: event.target.value })}
        />
        <p id={`${ipsId}-hint`} className="field-hint">
          {t('dev.form.ipsHint')}
        </p>
        {ipsError && (
          <p id={`${ipsId}-error`} className="field-error">
            {ipsError}
          </p>
        )}
      </div>
    </>
  )
}
