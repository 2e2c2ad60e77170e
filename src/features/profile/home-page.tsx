import { useQuery } from '@tanstack/react-query'
import { errorMessage } from '../../i18n/error-message.ts'
import { useI18n } from '../../i18n/i18n.tsx'
import { Alert, Button, Spinner } from '../../ui/components.tsx'
import { meQuery } from './queries.ts'

export default function HomePage() {
  const { t, formatDate } = useI18n()
  const me = useQuery(meQuery())

  if (me.isPending) return <Spinner label={t('app.loading')} />
  if (me.isError) {
    return (
      <div className="stack">
        <Alert>{errorMessage(me.error, t)}</Alert>
        <Button variant="secondary" onClick={() => me.refetch()}>
          {t('error.retry')}
        </Button>
      </div>
    )
  }

  const user = me.data
  return (
    <>
      <section className="card stack" aria-labelledby="home-title">
        <h1 id="home-title">{t('home.greeting')}</h1>
        <p className="lead" data-testid="signed-in-as">
          {t('home.signedInAs', { email: user.email ?? user.phone ?? '' })}
        </p>
      </section>
      <section className="card stack" aria-labelledby="profile-title">
        <h2 id="profile-title">{t('profile.title')}</h2>
        <dl className="details">
          <dt>{t('profile.email')}</dt>
          <dd>{user.email ?? t('profile.notSet')}</dd>
          <dt>{t('profile.phone')}</dt>
          <dd>{user.phone ?? t('profile.notSet')}</dd>
          <dt>{t('profile.verification')}</dt>
          <dd>{t(`kyc.${user.kyc_status}`)}</dd>
          <dt>{t('profile.memberSince')}</dt>
          <dd>{formatDate(user.created_at)}</dd>
        </dl>
      </section>
    </>
  )
}
