import SumsubWebSdk from '@sumsub/websdk-react'
import { useI18n } from '../../i18n/i18n.tsx'

/** SDK messages after which the status on our side may have moved: read it again. */
const PROGRESS_MESSAGES = new Set([
  'idCheck.onApplicantSubmitted',
  'idCheck.onApplicantResubmitted',
  'idCheck.applicantStatus',
  'idCheck.onApplicantStatusChanged',
])

/**
 * Sumsub's WebSDK in the page. This module is its own lazy chunk: the SDK
 * loads only on a Sumsub deployment, when the person opens the verification.
 * The decision reaches us by Sumsub's webhook, never from this page: the
 * SDK's messages only tell the page to read the status again.
 */
export default function SumsubVerification(props: {
  token: string
  renewToken: () => Promise<string>
  onProgress: () => void
}) {
  const { language } = useI18n()
  return (
    <SumsubWebSdk
      accessToken={props.token}
      expirationHandler={props.renewToken}
      config={{ lang: language }}
      options={{ adaptIframeHeight: true }}
      onMessage={(type: string) => {
        if (PROGRESS_MESSAGES.has(type)) props.onProgress()
      }}
      onError={() => props.onProgress()}
    />
  )
}
