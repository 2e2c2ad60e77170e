import { useQuery } from '@tanstack/react-query'
import type { ReactNode } from 'react'
import { Link } from 'wouter'
import { useI18n } from '../../i18n/i18n.tsx'
import { href, paths } from '../../paths.ts'
import { meQuery, userDataQuery } from '../../queries/user.ts'
import { isTelegram } from '../../telegram/launch.ts'
import { AccountsIcon, CodeIcon, PeopleIcon, ShieldIcon, SignOutIcon } from '../../ui/icons.tsx'
import { InstallButton } from '../../ui/install-button.tsx'
import { install } from '../../ui/install-offer.ts'
import { LinkList, type LinkRow } from '../../ui/link-list.tsx'
import { LoadError } from '../../ui/load-error.tsx'
import { Pending } from '../../ui/online.tsx'
import { PageHeader } from '../../ui/page-header.tsx'
import { LockIcon, SealCheckIcon } from '../../ui/screen-icons.tsx'
import { ContactChange } from './contact-change.tsx'
import { FindingYou } from './finding-you.tsx'
import { PersonalDetails } from './personal-details.tsx'
import { ThemeChoice } from './theme-choice.tsx'

/**
 * The Profile tab: who you are, the places that live under this tab on a
 * phone (verification and where it stands, accounts, counterparties, the
 * developer area), contacts, details, the theme and sign-out.
 */
export default function ProfilePage(props: {
  /** The notification settings, from their own feature (composed in src/app/routes.tsx). */
  notifications?: ReactNode
  /** Where the person is signed in, from the security feature (composed in src/app/routes.tsx). */
  sessions?: ReactNode
}) {
  const { t, formatDate } = useI18n()
  const me = useQuery(meQuery())
  const details = useQuery(userDataQuery())

  if (me.isPending || details.isPending) {
    return <Pending paused={me.isPaused || details.isPaused} />
  }
  if (me.isError || details.isError) {
    return (
      <LoadError
        error={me.error ?? details.error}
        what="account"
        back={{ href: paths.home, label: t('missing.home') }}
        onRetry={() => {
          if (me.isError) void me.refetch()
          if (details.isError) void details.refetch()
        }}
      />
    )
  }

  const user = me.data
  const name = [details.data.first_name, details.data.last_name].filter(Boolean).join(' ')
  const places: LinkRow[] = [
    {
      key: 'verify',
      to: paths.verify,
      icon: ShieldIcon,
      // Verified is said once: the title says it, the line says what is behind it.
      ...(user.kyc_status === 'APPROVED'
        ? { title: t('profile.verified'), explain: t('profile.verifiedLead') }
        : { title: t('kyc.profile.verify'), explain: t(`kyc.${user.kyc_status}`) }),
    },
    {
      key: 'security',
      to: paths.security,
      icon: LockIcon,
      title: t('security.link'),
      explain: t('security.linkLead'),
    },
    {
      key: 'proofs',
      to: paths.proofs,
      icon: SealCheckIcon,
      title: t('profile.proofs.link'),
      explain: t('profile.proofs.linkLead'),
    },
    {
      key: 'accounts',
      to: href.fiatAccounts(),
      icon: AccountsIcon,
      title: t('nav.accounts'),
      explain: t('profile.accountsLead'),
    },
    {
      key: 'counterparties',
      to: paths.counterpartiesHome,
      icon: PeopleIcon,
      title: t('nav.counterparties'),
      explain: t('move.counterparties'),
    },
    {
      key: 'developer',
      to: paths.developer,
      icon: CodeIcon,
      title: t('profile.developer'),
      explain: t('profile.developerLead'),
    },
  ]
  return (
    <>
      <PageHeader id="profile-title" title={t('profile.title')} />
      <section className="card stack profile-card" aria-labelledby="profile-title">
        <p className="profile-name">{name || t('profile.noName')}</p>
        {/* The verification's status is said once, by its row below. */}
        <dl className="details">
          <dt>{t('profile.memberSince')}</dt>
          <dd>{formatDate(user.created_at)}</dd>
        </dl>
      </section>
      <nav className="card card-flush" aria-label={t('profile.more')}>
        <LinkList rows={places} />
      </nav>
      <section className="card stack" aria-labelledby="contacts-title">
        <h2 id="contacts-title">{t('profile.contacts')}</h2>
        <ContactChange channel="email" user={user} />
        <ContactChange channel="sms" user={user} />
      </section>
      <section className="card">
        <PersonalDetails data={details.data} />
      </section>
      <FindingYou data={details.data} />
      {props.sessions}
      {props.notifications}
      <ThemeChoice />
      {/* Where the app can be installed: the shell offered it once, Profile keeps offering. */}
      {install.offer && !isTelegram() && (
        <section className="card stack" aria-labelledby="install-title">
          <h2 id="install-title">{t('profile.installTitle')}</h2>
          <p className="muted">{t('profile.installLead')}</p>
          <div>
            <InstallButton />
          </div>
        </section>
      )}
      {!isTelegram() && (
        <section className="card stack" aria-labelledby="session-title">
          <h2 id="session-title">{t('profile.session')}</h2>
          <p className="muted">{t('profile.signOutLead')}</p>
          <p>
            <Link href={paths.logout} className="button button-secondary">
              <SignOutIcon size={20} />
              {t('auth.signOut')}
            </Link>
          </p>
        </section>
      )}
    </>
  )
}
