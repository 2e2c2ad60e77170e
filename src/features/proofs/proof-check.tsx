import { useQuery, useQueryClient } from '@tanstack/react-query'
import { useEffect, useState } from 'react'
import type { MyProof, ProofKey } from '../../../contract/proofs.ts'
import { formatLocale } from '../../i18n/digits.ts'
import type { MessageKey } from '../../i18n/en.ts'
import { formatDateTime } from '../../i18n/format.ts'
import { useI18n } from '../../i18n/i18n.tsx'
import { formatMoney } from '../../i18n/money.ts'
import { useTenantConfig } from '../../queries/tenant.ts'
import { Alert, Button, Skeleton } from '../../ui/components.tsx'
import { ConfirmDialog } from '../../ui/confirm-dialog.tsx'
import { inFours } from '../../ui/copy-button.tsx'
import { useOnline } from '../../ui/online.tsx'
import { CheckIcon, CloseIcon } from '../../ui/screen-icons.tsx'
import { CHECKS, type CheckStatus } from '../../workers/proof-checks.ts'
import type { Verdict } from '../../workers/proof-verify.ts'
import { openProofVerifier } from '../../workers/proof-verify-client.ts'
import { Balances, moneyFirst, Reserves, Technical } from './proof-details.tsx'
import './proofs.css'

/** The worker for as long as the screen is open: its heap goes with it. */
function useVerifier() {
  const [client] = useState(openProofVerifier)
  useEffect(() => () => client.close(), [client])
  return client
}

export default function ProofCheck(props: {
  tenantId: string
  proof: MyProof
  publicKey: ProofKey
  /** The verdict's query key (queries.ts proofKeys.verdict). */
  verdictKey: readonly unknown[]
  refresh: () => Promise<unknown>
}) {
  const { t, language } = useI18n()
  const { proof, publicKey } = props
  const verifier = useVerifier()
  const queryClient = useQueryClient()
  const online = useOnline()
  const request = { tenantId: props.tenantId, proof, key: publicKey }
  const verdict = useQuery({
    queryKey: props.verdictKey,
    queryFn: () => verifier.verify(request),
    // Computed here, from what is in the cache: no network, never stale, never on disk.
    networkMode: 'always',
    staleTime: Number.POSITIVE_INFINITY,
    gcTime: 0,
    retry: false,
    meta: { persist: false },
  })
  const [trusting, setTrusting] = useState(false)
  const [checking, setChecking] = useState(false)

  if (verdict.isPending) return <Skeleton label={t('profile.proofs.checking')} shape="card" />
  if (verdict.isError) {
    return (
      <Alert>
        {t('profile.proofs.workerFailed')}{' '}
        <Button variant="quiet" onClick={() => void verdict.refetch()}>
          {t('profile.proofs.checkAgain')}
        </Button>
      </Alert>
    )
  }
  const result = verdict.data
  const day = new Intl.DateTimeFormat(formatLocale(language), {
    day: 'numeric',
    month: 'short',
    timeZone: 'UTC',
  }).format(new Date(proof.root.taken_at))

  const checkAgain = async () => {
    setChecking(true)
    try {
      if (online) await props.refresh()
      await verdict.refetch()
    } finally {
      setChecking(false)
    }
  }
  const trust = async () => {
    queryClient.setQueryData(props.verdictKey, await verifier.trust(request))
    setTrusting(false)
  }

  return (
    <>
      <section className="card stack" aria-labelledby="proofs-outcome" aria-live="polite">
        <h2 id="proofs-outcome" className="visually-hidden">
          {t('profile.proofs.outcome')}
        </h2>
        <Outcome verdict={result} proof={proof} day={day} />
        <Checks checks={result.checks} />
        {!online && <p className="muted">{t('profile.proofs.offline')}</p>}
        <div className="row">
          <Button variant="secondary" busy={checking} onClick={() => void checkAgain()}>
            {t('profile.proofs.checkAgain')}
          </Button>
        </div>
      </section>
      <KeySection verdict={result} publicKey={publicKey} onTrust={() => setTrusting(true)} />
      <Balances proof={proof} />
      <Reserves proof={proof} />
      <Technical proof={proof} language={language} />
      <ConfirmDialog
        open={trusting}
        title={t('profile.proofs.trustTitle')}
        message={t('profile.proofs.trustBody', { key: inFours(publicKey.key_id) })}
        confirmLabel={t('profile.proofs.trust')}
        busy={false}
        onConfirm={() => void trust()}
        onCancel={() => setTrusting(false)}
      />
    </>
  )
}

/** The answer in people's words: what is included, and when — or which check failed. */
function Outcome(props: { verdict: Verdict; proof: MyProof; day: string }) {
  const { t, language } = useI18n()
  const support = useTenantConfig()?.support.email
  if (!props.verdict.ok) {
    return (
      <div className="proof-outcome proof-outcome-failed">
        <span className="proof-outcome-icon" aria-hidden="true">
          <CloseIcon size={22} />
        </span>
        <div className="stack">
          <p className="proof-outcome-title">{t('profile.proofs.failed', { date: props.day })}</p>
          <p>{t(`profile.proofs.failure.${props.verdict.failure}` as MessageKey)}</p>
          <p className="muted">{t('profile.proofs.failedNext')}</p>
          {support && (
            <p>
              <a href={`mailto:${support}`}>{support}</a>
            </p>
          )}
        </div>
      </div>
    )
  }
  const amounts = moneyFirst(props.proof.balances_at_snapshot).map((balance) =>
    formatMoney(language, balance),
  )
  return (
    <div className="proof-outcome proof-outcome-ok">
      <span className="proof-outcome-icon" aria-hidden="true">
        <CheckIcon size={22} />
      </span>
      <p className="proof-outcome-title" data-testid="proof-verdict">
        {amounts.length === 0
          ? t('profile.proofs.includedNothing', { date: props.day })
          : t('profile.proofs.included', {
              balances: new Intl.ListFormat(language, { type: 'conjunction' }).format(amounts),
              date: props.day,
            })}
      </p>
    </div>
  )
}

const STATUS_ICON: Record<CheckStatus, string> = { passed: '✓', failed: '✕', skipped: '–' }

function Checks(props: { checks: Record<(typeof CHECKS)[number], CheckStatus> }) {
  const { t } = useI18n()
  const name = useTenantConfig()?.name ?? t('app.name')
  return (
    <ul className="proof-checks" aria-label={t('profile.proofs.checks')}>
      {CHECKS.map((check) => {
        const status = props.checks[check]
        return (
          <li key={check} className={`proof-check proof-check-${status}`}>
            <span className="proof-check-mark" aria-hidden="true">
              {STATUS_ICON[status]}
            </span>
            <span>
              {t(`profile.proofs.check.${check}` as MessageKey, { name })}
              <span className="visually-hidden">
                {' — '}
                {t(`profile.proofs.check.${status}` as MessageKey)}
              </span>
            </span>
          </li>
        )
      })}
    </ul>
  )
}

/** The tenant's key as a fingerprint, since when this device trusts it, and a changed one. */
function KeySection(props: { verdict: Verdict; publicKey: ProofKey; onTrust: () => void }) {
  const { t, language } = useI18n()
  const { verdict } = props
  const changed = !verdict.ok && verdict.failure === 'key_changed'
  return (
    <section className="card stack proof-key" aria-labelledby="proofs-key">
      <h2 id="proofs-key">{t(changed ? 'profile.proofs.keyChanged' : 'profile.proofs.key')}</h2>
      {changed ? (
        <>
          <p>
            {t('profile.proofs.keyChangedLead', {
              old: inFours(verdict.pinnedKeyId ?? ''),
              new: inFours(props.publicKey.key_id),
            })}
          </p>
          <div className="row">
            <Button variant="danger" onClick={props.onTrust}>
              {t('profile.proofs.trust')}
            </Button>
          </div>
        </>
      ) : (
        <>
          <p className="muted">{t('profile.proofs.keyLead')}</p>
          <p className="proof-fingerprint address-text" data-testid="proof-fingerprint">
            {inFours(verdict.ok ? verdict.keyId : props.publicKey.key_id)}
          </p>
          {verdict.ok && (
            <p className="muted">
              {verdict.firstUse
                ? t('profile.proofs.keyPinnedNow')
                : t('profile.proofs.keyPinned', {
                    date: formatDateTime(language, verdict.pinnedAt),
                  })}
            </p>
          )}
        </>
      )}
    </section>
  )
}
