import type { Lockdown, LockdownAct } from '../../../contract/lockdown.ts'
import type { MessageKey } from '../../i18n/en.ts'
import { errorMessage } from '../../i18n/error-message.ts'
import { useI18n } from '../../i18n/i18n.tsx'
import { Button } from '../../ui/components.tsx'
import { useLiftLockdown } from './lockdown-mutations.ts'

const REFUSED: Record<LockdownAct, MessageKey> = {
  withdrawals: 'lockdown.banner.withdrawals',
  payouts: 'lockdown.banner.payouts',
  api_keys: 'lockdown.banner.api_keys',
  webhooks: 'lockdown.banner.webhooks',
  contact_changes: 'lockdown.banner.contact_changes',
}

/**
 * Over every signed-in screen while the account is locked down (issue 30):
 * what is refused, and "Lift" — the security section's lift, behind the
 * second look. Shown by ./lockdown-gate.tsx, which loads it with its words.
 */
export default function LockdownBanner(props: { status: Lockdown }) {
  const { t, language } = useI18n()
  const lift = useLiftLockdown()
  const refused = new Intl.ListFormat(language, { type: 'conjunction' }).format(
    props.status.refused.map((act) => t(REFUSED[act])),
  )
  return (
    <section className="banner banner-lockdown" aria-label={t('lockdown.title')}>
      <p>
        {t('lockdown.banner.text', { refused })}{' '}
        <Button
          variant="quiet"
          aria-label={t('lockdown.lift')}
          busy={lift.isPending}
          onClick={() => lift.mutate()}
        >
          {t('lockdown.banner.lift')}
        </Button>
      </p>
      {lift.isError && <p role="alert">{errorMessage(lift.error, t)}</p>}
    </section>
  )
}
