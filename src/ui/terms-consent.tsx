import { useId } from 'react'
import { useI18n } from '../i18n/i18n.tsx'

/**
 * "I agree to the Terms of Service and the Privacy Policy": asked before an
 * account is opened, on the web's sign-up as in the Mini App. `missing`
 * says so under it once the person tried to go on without it.
 */
export function TermsConsent(props: {
  checked: boolean
  onChange: (checked: boolean) => void
  missing: boolean
}) {
  const { t } = useI18n()
  const id = useId()
  const errorId = useId()
  const invalid = props.missing && !props.checked
  return (
    <div className="stack terms-consent">
      <label htmlFor={id} className="checkbox">
        <input
          id={id}
          type="checkbox"
          checked={props.checked}
          aria-invalid={invalid || undefined}
          aria-describedby={invalid ? errorId : undefined}
          onChange={(event) => props.onChange(event.target.checked)}
        />
        <span>{t('telegram.termsAccept')}</span>
      </label>
      {invalid && (
        <p id={errorId} className="field-error" role="alert">
          {t('telegram.termsRequired')}
        </p>
      )}
    </div>
  )
}
