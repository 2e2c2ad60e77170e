import { useQuery } from '@tanstack/react-query'
import type { LockdownAct } from '../../../contract/lockdown.ts'
import type { MessageKey } from '../../i18n/en.ts'
import { errorMessage, formatMoment } from '../../i18n/error-message.ts'
import { useI18n } from '../../i18n/i18n.tsx'
import { paths } from '../../paths.ts'
import { Alert, Button, Skeleton } from '../../ui/components.tsx'
import { LoadError } from '../../ui/load-error.tsx'
import { useLiftLockdown, useStartLockdown } from './lockdown-mutations.ts'
import { lockdownQuery } from './queries.ts'

const REFUSED: Record<LockdownAct, MessageKey> = {
  withdrawals: 'lockdown.refused.withdrawals',
  payouts: 'lockdown.refused.payouts',
  api_keys: 'lockdown.refused.api_keys',
  webhooks: 'lockdown.refused.webhooks',
  contact_changes: 'lockdown.refused.contact_changes',
}

/**
 * "That wasn't me" (issue 30): one button freezes every card and signs every
 * other device out at once, never asking for the second look. While locked,
 * the section says what is refused, and "Lift" — from 10 minutes on, behind
 * the second look the API client asks for. Frozen cards stay frozen.
 */
export function LockdownSection() {
  const { t, language } = useI18n()
  const status = useQuery(lockdownQuery())
  const lock = useStartLockdown()
  const lift = useLiftLockdown()
  const failed = lock.error ?? lift.error
  return (
    <section className="card stack" aria-labelledby="lockdown-title">
      <h2 id="lockdown-title">{t('lockdown.title')}</h2>
      {status.isPending ? (
        <Skeleton label={t('lockdown.loading')} shape="rows" />
      ) : status.isError ? (
        <LoadError
          error={status.error}
          what="account"
          back={{ href: paths.profile, label: t('security.back') }}
          onRetry={() => void status.refetch()}
        />
      ) : status.data.active ? (
        <>
          <Alert tone="warning">{t('lockdown.active')}</Alert>
          <p>{t('lockdown.refusedLead')}</p>
          <ul>
            {status.data.refused.map((act) => (
              <li key={act}>{t(REFUSED[act])}</li>
            ))}
          </ul>
          <p className="muted">
            {t('lockdown.liftAfter', {
              time: formatMoment(status.data.lift_after ?? '', language) ?? '',
            })}
          </p>
          <div>
            <Button variant="secondary" busy={lift.isPending} onClick={() => lift.mutate()}>
              {t('lockdown.lift')}
            </Button>
          </div>
        </>
      ) : (
        <>
          <p className="muted">{t('lockdown.lead')}</p>
          <div>
            <Button variant="danger" busy={lock.isPending} onClick={() => lock.mutate()}>
              {t('lockdown.start')}
            </Button>
          </div>
        </>
      )}
      {failed && <Alert>{errorMessage(failed, t)}</Alert>}
    </section>
  )
}
