import { useId } from 'react'
import { useI18n } from '../i18n/i18n.tsx'

/** The Terms of Service or the Privacy Policy in the language on screen: static pages (public/legal/). */
export const legalPage = (page: 'terms' | 'privacy', language: string) =>
  `/legal/${page}.${language === 'ru' ? 'ru' : 'en'}.html`

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
  const { t, language } = useI18n()
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
        <span>
          {/* The sentence's own order in each language, the two documents as links in it. */}
          {t('telegram.termsAccept', { terms: '\u0000terms\u0000', privacy: '\u0000privacy\u0000' })
            .split('\u0000')
            .map((part, index) =>
              part === 'terms' || part === 'privacy' ? (
                <a
                  // biome-ignore lint/suspicious/noArrayIndexKey: the sentence's parts never move
                  key={index}
                  href={legalPage(part, language)}
                  target="_blank"
                  rel="noopener"
                >
                  {t(part === 'terms' ? 'telegram.termsLink' : 'telegram.privacyLink')}
                </a>
              ) : (
                part
              ),
            )}
        </span>
      </label>
      {invalid && (
        <p id={errorId} className="field-error" role="alert">
          {t('telegram.termsRequired')}
        </p>
      )}
    </div>
  )
}
