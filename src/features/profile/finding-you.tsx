import type { UserData } from '../../../contract/user.ts'
import { useI18n } from '../../i18n/i18n.tsx'
import { ErrorSummary } from '../../ui/error-summary.tsx'
import { useNeedsServer } from '../../ui/online.tsx'
import { useUpdateUserData } from './mutations.ts'

/**
 * Whether people of the platform may find the person by e-mail, phone or
 * Telegram username and pay them at once (issue 32): saved as it is
 * switched; hidden, a payment to them waits until they accept it.
 */
export function FindingYou(props: { data: UserData }) {
  const { t } = useI18n()
  const update = useUpdateUserData()
  const server = useNeedsServer()
  const shown = update.isPending
    ? (update.variables?.people_discoverable ?? props.data.people_discoverable)
    : props.data.people_discoverable
  return (
    <section className="card stack" aria-labelledby="finding-you-title">
      <h2 id="finding-you-title">{t('profile.findingYou')}</h2>
      <label className="checkbox">
        <input
          type="checkbox"
          checked={shown}
          disabled={update.isPending || server.offline}
          onChange={(event) => update.mutate({ people_discoverable: event.target.checked })}
        />
        <span>{t('profile.findingYouLabel')}</span>
      </label>
      <p className="muted">{t(shown ? 'profile.findingYouOn' : 'profile.findingYouOff')}</p>
      <ErrorSummary error={update.error} />
      {server.reason}
    </section>
  )
}
