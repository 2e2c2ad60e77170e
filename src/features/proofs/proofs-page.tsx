import { useQuery } from '@tanstack/react-query'
import { lazy, Suspense } from 'react'
import { useI18n } from '../../i18n/i18n.tsx'
import { ApiError } from '../../net/api.ts'
import { netConfig } from '../../net/config.ts'
import { paths } from '../../paths.ts'
import { Button, Skeleton } from '../../ui/components.tsx'
import { LoadError } from '../../ui/load-error.tsx'
import { Pending } from '../../ui/online.tsx'
import { PageHeader } from '../../ui/page-header.tsx'
import { myProofQuery, proofKeyQuery, proofKeys } from './queries.ts'

/**
 * The check and what it shows come once the proof and key are here: the
 * route's own chunk is the frame and the reads, so the first download's list
 * of what each route needs stays short (its budget, tests/e2e/initial-js-size).
 */
const ProofCheck = lazy(() => import('./proof-check.tsx'))

/**
 * Profile → Proof of balances (issue 33): the day's signed total of every
 * person's balances, and this device's own check that the person's are in
 * it — in a worker, against the key pinned on first use, offline once the
 * proof and the key are saved.
 */
export default function ProofsPage() {
  const { t } = useI18n()
  const tenantId = netConfig.tenantId
  const mine = useQuery(myProofQuery())
  const key = useQuery(proofKeyQuery(tenantId))
  const header = (
    <PageHeader
      id="proofs-title"
      title={t('profile.proofs.title')}
      lead={t('profile.proofs.lead')}
      back={{ href: paths.profile, label: t('profile.proofs.back') }}
    />
  )
  const back = { href: paths.profile, label: t('profile.proofs.back') }

  if (mine.isPending || key.isPending) {
    return (
      <>
        {header}
        <Pending paused={mine.isPaused || key.isPaused} shape="card" />
      </>
    )
  }
  const notYet = mine.error instanceof ApiError ? mine.error.code : undefined
  if (notYet === 'PROOF_NOT_PUBLISHED' || notYet === 'NOT_IN_PROOF') {
    return (
      <>
        {header}
        <NotYet code={notYet} onRetry={() => void mine.refetch()} />
      </>
    )
  }
  if (mine.isError || key.isError) {
    return (
      <>
        {header}
        <LoadError
          error={mine.error ?? key.error}
          what="account"
          back={back}
          onRetry={() => {
            if (mine.isError) void mine.refetch()
            if (key.isError) void key.refetch()
          }}
        />
      </>
    )
  }
  return (
    <>
      {header}
      <Suspense fallback={<Skeleton label={t('profile.proofs.checking')} shape="card" />}>
        <ProofCheck
          tenantId={tenantId}
          proof={mine.data}
          publicKey={key.data}
          verdictKey={proofKeys.verdict(
            mine.data.root.snapshot_id,
            mine.data.leaf.nonce,
            key.data.key_id,
          )}
          refresh={() => Promise.all([mine.refetch(), key.refetch()])}
        />
      </Suspense>
    </>
  )
}

/** No proof to check yet: none published, or the person joined after the newest one. */
function NotYet(props: { code: 'PROOF_NOT_PUBLISHED' | 'NOT_IN_PROOF'; onRetry: () => void }) {
  const { t } = useI18n()
  const first = props.code === 'NOT_IN_PROOF'
  return (
    <section className="card empty-state" aria-labelledby="proofs-not-yet">
      <h2 id="proofs-not-yet">
        {t(first ? 'profile.proofs.notIncluded' : 'profile.proofs.notPublished')}
      </h2>
      <p className="lead">
        {t(first ? 'profile.proofs.notIncludedLead' : 'profile.proofs.notPublishedLead')}
      </p>
      <Button variant="secondary" onClick={props.onRetry}>
        {t('profile.proofs.checkAgain')}
      </Button>
    </section>
  )
}
