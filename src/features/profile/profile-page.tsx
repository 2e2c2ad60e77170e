import { useQuery } from '@tanstack/react-query'
import { Link } from 'wouter'
import { paths } from '../../app/paths.ts'
import { useI18n } from '../../i18n/i18n.tsx'
import { Button } from '../../ui/components.tsx'
import { ErrorSummary } from '../../ui/error-summary.tsx'
import { Pending } from '../../ui/online.tsx'
import { ContactChange } from './contact-change.tsx'
import { PersonalDetails } from './personal-details.tsx'
import { meQuery, userDataQuery } from './queries.ts'

/** The person's own profile: contacts (changed in two steps), details, language, sign-out. */
export default function ProfilePage() {
  const { t, formatDate } = useI18n()
  const me = useQuery(meQuery())
  const details = useQuery(userDataQuery())

  if (me.isPending || details.isPending) {
    return <Pending paused={me.isPaused || details.isPaused} />
  }
  if (me.isError || details.isError) {
    return (
      <div className="stack">
        <ErrorSummary error={me.error ?? details.error} />
        <Button
          variant="secondary"
          onClick={() => {
            if (me.isError) void me.refetch()
            if (details.isError) void details.refetch()
          }}
        >
          {t('error.retry')}
        </Button>
      </div>
    )
  }

  const user = me.data
  return (
    <>
      <section className="card stack" aria-labelledby="profile-title">
        <h1 id="profile-title">{t('profile.title')}</h1>
        <p className="lead">{t('profile.lead')}</p>
        <dl className="details">
          <dt>{t('profile.verification')}</dt>
          <dd>
            {t(`kyc.${user.kyc_status}`)}{' '}
            <Link href={paths.verify}>
              {t(user.kyc_status === 'APPROVED' ? 'kyc.profile.details' : 'kyc.profile.verify')}
            </Link>
          </dd>
          <dt>{t('profile.memberSince')}</dt>
          <dd>{formatDate(user.created_at)}</dd>
        </dl>
      </section>
      <section className="card stack" aria-labelledby="contacts-title">
        <h2 id="contacts-title">{t('profile.contacts')}</h2>
        <ContactChange channel="email" user={user} />
        <ContactChange channel="sms" user={user} />
      </section>
      <section className="card">
        <PersonalDetails data={details.data} />
      </section>
      <section className="card stack" aria-labelledby="developer-title">
        <h2 id="developer-title">{t('profile.developer')}</h2>
        <p className="muted">{t('profile.developerLead')}</p>
        <p>
          <Link href={paths.developer}>{t('profile.developerLink')}</Link>
        </p>
      </section>
      <section className="card stack" aria-labelledby="session-title">
        <h2 id="session-title">{t('profile.session')}</h2>
        <p className="muted">{t('profile.signOutLead')}</p>
        <p>
          <Link href={paths.logout} className="button button-secondary">
            {t('auth.signOut')}
          </Link>
        </p>
      </section>
    </>
  )
}
