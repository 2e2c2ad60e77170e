import { useQuery, useQueryClient } from '@tanstack/react-query'
import { lazy, Suspense, useEffect, useRef, useState } from 'react'
import { Link } from 'wouter'
import type { KycHistoryEntry, KycToken } from '../../../contract/kyc.ts'
import { useI18n } from '../../i18n/i18n.tsx'
import { paths } from '../../paths.ts'
import { useOffers } from '../../queries/tenant.ts'
import { userKeys } from '../../queries/user.ts'
import { Button, Skeleton } from '../../ui/components.tsx'
import { ErrorSummary } from '../../ui/error-summary.tsx'
import { Pending } from '../../ui/online.tsx'
import { statusView } from './kyc-status.ts'
import { kycKeys, kycStatusQuery, useKycToken } from './queries.ts'
import { SandboxVerification } from './sandbox-verification.tsx'
import './kyc.css'

// The provider's SDK (and its React wrapper) loads only when a person opens it on a Sumsub deployment.
const SumsubVerification = lazy(() => import('./sumsub-verification.tsx'))

/**
 * /verify: where the person's identity verification stands, in words, what
 * to do next, and the provider's flow — the Sumsub WebSDK, or the sandbox's
 * own screen. While the provider decides, the page asks again on its own.
 */
export default function VerifyPage() {
  const { t } = useI18n()
  const status = useQuery(kycStatusQuery())
  const token = useKycToken()
  const queryClient = useQueryClient()
  const [flow, setFlow] = useState<KycToken>()
  const headingRef = useRef<HTMLHeadingElement>(null)
  const offersCards = useOffers('cards')

  const current = status.data?.status
  // A decision arrived while the flow was open (the SDK's webhook, the sandbox operator): close it.
  useEffect(() => {
    if (current && !statusView(current).canStart) setFlow(undefined)
  }, [current])
  // A change of status changes the person too: their status, and an approval's verified name
  // (the server fills an empty profile name with it), which home greets them by.
  const seen = useRef(current)
  useEffect(() => {
    if (seen.current !== undefined && seen.current !== current) {
      void queryClient.invalidateQueries({ queryKey: userKeys.all })
    }
    seen.current = current
  }, [current, queryClient])

  if (status.isPending) return <Pending paused={status.isPaused} />
  if (status.isError) {
    return (
      <div className="stack">
        <ErrorSummary error={status.error} />
        <Button variant="secondary" onClick={() => void status.refetch()}>
          {t('error.retry')}
        </Button>
      </div>
    )
  }

  const reply = status.data
  const view = statusView(reply.status)
  const reason = reply.history.find((entry) => entry.status === reply.status)?.reason
  const refresh = () => queryClient.invalidateQueries({ queryKey: kycKeys.status() })
  const start = () =>
    token.mutate(undefined, {
      onSuccess: (opened) => setFlow(opened),
    })

  return (
    <>
      <section className="card stack" aria-labelledby="kyc-title">
        <h1 id="kyc-title" ref={headingRef} tabIndex={-1}>
          {t('kyc.page.title')}
        </h1>
        <p className={`kyc-status kyc-status-${view.tone}`} data-status={reply.status}>
          <span className="muted">{t('kyc.page.status')}</span>{' '}
          <strong>{t(`kyc.${reply.status}`)}</strong>
        </p>
        <p className="lead">{t(`kyc.explain.${reply.status}`)}</p>
        {reason && (
          <p>
            {t('kyc.page.reason')} {reason}
          </p>
        )}
        {view.polls && (
          <div className="stack">
            <progress className="kyc-progress" aria-label={t('kyc.page.checking')} />
            <p className="muted" role="status">
              {t(reply.status === 'HOLD' ? 'kyc.page.holdPolling' : 'kyc.page.polling')}
            </p>
          </div>
        )}
        {view.tone === 'success' && offersCards && (
          <Link href={paths.cards} className="button button-primary">
            {t('kyc.page.toCards')}
          </Link>
        )}
        {view.canStart && !flow && (
          <>
            <Button onClick={start} busy={token.isPending}>
              {t(reply.status === 'UNVERIFIED' ? 'kyc.page.start' : 'kyc.page.retry')}
            </Button>
            <ErrorSummary error={token.error} />
          </>
        )}
      </section>

      {flow?.provider === 'sandbox' && (
        <SandboxVerification
          onCancel={() => {
            setFlow(undefined)
            headingRef.current?.focus()
          }}
          onSubmitted={() => {
            setFlow(undefined)
            headingRef.current?.focus()
          }}
        />
      )}
      {flow?.provider === 'sumsub' && (
        <section className="card stack" aria-label={t('kyc.sumsub.title')}>
          <Suspense fallback={<Skeleton label={t('kyc.sumsub.loading')} shape="card" />}>
            <SumsubVerification
              token={flow.token}
              renewToken={async () => (await token.mutateAsync()).token}
              onProgress={refresh}
            />
          </Suspense>
        </section>
      )}

      {reply.history.length > 0 && (
        <section className="card stack" aria-labelledby="kyc-history">
          <h2 id="kyc-history">{t('kyc.page.history')}</h2>
          <History entries={reply.history} />
        </section>
      )}
    </>
  )
}

function History(props: { entries: KycHistoryEntry[] }) {
  const { t, formatDate } = useI18n()
  return (
    <ol className="kyc-history">
      {props.entries.map((entry) => (
        // New entries come in at the top: the index is no key. A status is entered once per moment.
        <li key={`${entry.at}:${entry.status}`}>
          <strong>{t(`kyc.${entry.status}`)}</strong>{' '}
          <time dateTime={entry.at} className="muted">
            {formatDate(entry.at)}
          </time>
          {entry.reason && <p className="muted">{entry.reason}</p>}
        </li>
      ))}
    </ol>
  )
}
