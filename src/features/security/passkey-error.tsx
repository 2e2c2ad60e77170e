import { useI18n } from '../../i18n/i18n.tsx'
import { ApiError } from '../../net/api.ts'
import { Alert } from '../../ui/components.tsx'
import { ErrorSummary } from '../../ui/error-summary.tsx'
import { wasCancelled } from './webauthn.ts'

/**
 * A failed passkey ceremony in words: the server's refusal as every error
 * is worded, the browser's own failure (no authenticator, a timeout) as one
 * plain sentence. Closing the browser's sheet is a choice, not an error.
 */
export function PasskeyError(props: { error: unknown; fallback?: 'passkey' | 'biometrics' }) {
  const { t } = useI18n()
  if (!props.error || wasCancelled(props.error)) return null
  if (props.error instanceof ApiError) return <ErrorSummary error={props.error} />
  return (
    <Alert>
      {t(props.fallback === 'biometrics' ? 'stepUp.biometricsRefused' : 'passkey.failed')}
    </Alert>
  )
}
