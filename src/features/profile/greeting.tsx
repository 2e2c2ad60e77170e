import { useQuery } from '@tanstack/react-query'
import { Link } from 'wouter'
import { paths } from '../../app/paths.ts'
import { useI18n } from '../../i18n/i18n.tsx'
import { Button } from '../../ui/components.tsx'
import { ErrorSummary } from '../../ui/error-summary.tsx'
import { Pending } from '../../ui/online.tsx'
import { displayPhone } from './display-phone.ts'
import { meQuery } from './queries.ts'

/** The top of the home screen: who is signed in, and the way to their profile. */
export function ProfileGreeting() {
  const { t } = useI18n()
  const me = useQuery(meQuery())

  if (me.isPending) return <Pending paused={me.isPaused} />
  if (me.isError) {
    return (
      <div className="stack">
        <ErrorSummary error={me.error} />
        <Button variant="secondary" onClick={() => me.refetch()}>
          {t('error.retry')}
        </Button>
      </div>
    )
  }

  const user = me.data
  const who = user.email ?? (user.phone ? displayPhone(user.phone) : '')
  return (
    <section className="card stack" aria-labelledby="home-title">
      <h1 id="home-title">{t('home.greeting')}</h1>
      <p className="lead" data-testid="signed-in-as">
        {t('home.signedInAs', { email: who })}
      </p>
      <p>
        <Link href={paths.profile}>{t('home.editProfile')}</Link>
      </p>
    </section>
  )
}
