import type { ReactNode } from 'react'
import { Link } from 'wouter'
import { LANGUAGE_NAMES, LANGUAGES, type Language, useI18n } from '../i18n/i18n.tsx'
import { isTelegram } from '../telegram/launch.ts'
import { paths } from './paths.ts'
import { InstallButton, OfflineBanner, UpdatePrompt } from './pwa.tsx'
import { TenantBrand, TenantSupport, useTenantBranding } from './tenant-branding.tsx'

export function Layout(props: { children: ReactNode; signedIn: boolean }) {
  const { t, language, setLanguage } = useI18n()
  // In Telegram the person is who Telegram says: signing out would only sign them in again.
  const inTelegram = isTelegram()
  useTenantBranding()
  return (
    <div className="shell">
      <a className="skip-link" href="#main">
        {t('app.skipToContent')}
      </a>
      <OfflineBanner />
      <header className="topbar">
        <Link href={paths.home} className="brand">
          <TenantBrand />
        </Link>
        <div className="row">
          <label>
            <span className="visually-hidden">{t('language.label')}</span>
            <select
              value={language}
              onChange={(event) => setLanguage(event.target.value as Language)}
            >
              {LANGUAGES.map((code) => (
                <option key={code} value={code} lang={code}>
                  {LANGUAGE_NAMES[code]}
                </option>
              ))}
            </select>
          </label>
          {props.signedIn && (
            <nav aria-label={t('nav.label')} className="row">
              <Link href={paths.profile} className="button button-ghost">
                {t('nav.profile')}
              </Link>
              {!inTelegram && (
                <Link href={paths.logout} className="button button-ghost">
                  {t('auth.signOut')}
                </Link>
              )}
            </nav>
          )}
        </div>
      </header>
      <main id="main" className="main" tabIndex={-1}>
        {props.children}
        {props.signedIn && !inTelegram && <InstallButton />}
      </main>
      <TenantSupport />
      <UpdatePrompt />
    </div>
  )
}
