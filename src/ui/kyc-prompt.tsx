import { type Ref, useId } from 'react'
import { Link } from 'wouter'
import { useI18n } from '../i18n/i18n.tsx'
import { ApiError } from '../net/api.ts'
import { paths } from '../paths.ts'

/** The server refused because the person's identity is not verified (403 KYC_REQUIRED). */
export const needsVerification = (error: unknown): boolean =>
  error instanceof ApiError && error.code === 'KYC_REQUIRED'

/**
 * What a 403 KYC_REQUIRED becomes anywhere in the app: a "Verify your
 * identity" prompt leading to /verify. ErrorSummary shows it for every
 * failed call it renders; screens with their own error wording add it beside.
 */
export function KycPrompt(props: { ref?: Ref<HTMLDivElement> }) {
  const { t } = useI18n()
  const id = useId()
  return (
    <div
      ref={props.ref}
      className="alert alert-warning stack"
      role="alert"
      aria-labelledby={id}
      tabIndex={-1}
    >
      <strong id={id}>{t('kyc.prompt.title')}</strong>
      <span>{t('kyc.prompt.body')}</span>
      <Link href={paths.verify} className="button button-primary">
        {t('kyc.prompt.link')}
      </Link>
    </div>
  )
}
