import { lazy, type ReactNode, Suspense } from 'react'
import { Link } from 'wouter'
import '../features/notifications/notifications.css'
import { useI18n } from '../i18n/i18n.tsx'
import { paths } from '../paths.ts'
import { isTelegram } from '../telegram/launch.ts'
import { HideAmountsButton } from '../ui/hide-amounts-button.tsx'
import { SignOutIcon } from '../ui/icons.tsx'
import { install } from '../ui/install-offer.ts'
import { LanguageSelect } from '../ui/language-select.tsx'
import { Navigation } from './navigation.tsx'
import { OfflineBanner, UpdatePrompt } from './pwa.tsx'
import { TenantBrand, TenantSupport, useTenantBranding } from './tenant-branding.tsx'

/** The shell's offer to install, loaded only where the browser makes one (src/ui/install-offer.ts). */
const InstallOnce = lazy(() => import('../ui/install-button.tsx'))
/**
 * What only the signed-in frame shows, one chunk apart from the first download:
 * the notification bell, the lockdown banner (issue 30) and the language kept
 * on the profile (issue 34). Both lazy parts import the one module: one request.
 */
const signedInParts = () => import('./signed-in-watchers.tsx')
const SignedInWatchers = lazy(signedInParts)
const NotificationBell = lazy(() =>
  signedInParts().then((module) => ({ default: module.NotificationBell })),
)

/** The bell, with a place of its size kept while its chunk arrives. */
function Bell(props: { className?: string }) {
  const className = `icon-button bell ${props.className ?? ''}`
  return (
    <Suspense fallback={<span className={className} aria-hidden="true" />}>
      <NotificationBell href={paths.notifications} className={props.className} />
    </Suspense>
  )
}

/**
 * The one frame of every screen. Signed in: on a phone or tablet a top bar
 * (the brand) and a bottom tab bar; on a desktop a 240 px side navigation
 * beside content up to 1100 px wide. Inside Telegram the chat's own header
 * stands in for the top bar and the tab bar stays. Signed out: the brand and
 * the language over one centred column.
 */
export function Layout(props: {
  children: ReactNode
  signedIn: boolean
  /** The path the screen inside shows (it lags the address while the session is read again). */
  location: string
}) {
  const { t } = useI18n()
  // In Telegram the person is who Telegram says: signing out would only sign them in again.
  const inTelegram = isTelegram()
  useTenantBranding()

  if (!props.signedIn) {
    return (
      <div className="shell shell-auth">
        <a className="skip-link" href="#main">
          {t('app.skipToContent')}
        </a>
        <OfflineBanner />
        <header className="topbar">
          <Link href={paths.home} className="brand">
            <TenantBrand />
          </Link>
          <LanguageSelect />
        </header>
        <main id="main" className="main" tabIndex={-1} data-location={props.location}>
          {props.children}
        </main>
        <TenantSupport />
        <UpdatePrompt />
      </div>
    )
  }

  return (
    <div className={inTelegram ? 'shell shell-app shell-telegram' : 'shell shell-app'}>
      <a className="skip-link" href="#main">
        {t('app.skipToContent')}
      </a>
      {!inTelegram && (
        <header className="topbar topbar-app">
          <Link href={paths.home} className="brand">
            <TenantBrand />
          </Link>
          <div className="topbar-actions">
            <HideAmountsButton />
            <Bell className="bell-topbar" />
          </div>
        </header>
      )}
      <div className="sidebar">
        <div className="sidebar-top">
          <Link href={paths.home} className="brand sidebar-brand">
            <TenantBrand />
          </Link>
          <div className="topbar-actions">
            <HideAmountsButton />
            <Bell className="bell-sidebar" />
          </div>
        </div>
        <Navigation />
        <div className="sidebar-footer">
          <LanguageSelect />
          {!inTelegram && (
            <Link href={paths.logout} className="nav-link">
              <SignOutIcon />
              <span className="nav-label">{t('auth.signOut')}</span>
            </Link>
          )}
        </div>
      </div>
      <div className="content">
        {inTelegram && (
          <div className="telegram-bar">
            <HideAmountsButton />
            <Bell />
          </div>
        )}
        <OfflineBanner />
        <Suspense fallback={null}>
          <SignedInWatchers />
        </Suspense>
        <main id="main" className="main main-app" tabIndex={-1} data-location={props.location}>
          {props.children}
          {!inTelegram && install.offer && (
            <Suspense fallback={null}>
              <InstallOnce />
            </Suspense>
          )}
        </main>
        <TenantSupport />
      </div>
      <UpdatePrompt />
    </div>
  )
}
