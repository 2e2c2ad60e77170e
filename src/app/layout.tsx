import type { ReactNode } from 'react'
import { Link } from 'wouter'
import { LANGUAGE_NAMES, LANGUAGES, type Language, useI18n } from '../i18n/i18n.tsx'
import { paths } from './paths.ts'
import { InstallButton, OfflineBanner, UpdatePrompt } from './pwa.tsx'

export function Layout(props: { children: ReactNode; signedIn: boolean }) {
  const { t, language, setLanguage } = useI18n()
  return (
    <div className="shell">
      <a className="skip-link" href="#main">
        {t('app.skipToContent')}
      </a>
      <OfflineBanner />
      <header className="topbar">
        <Link href={paths.home} className="brand">
          <img src="/icons/icon-192.png" alt="" />
          {t('app.name')}
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
              <Link href={paths.logout} className="button button-ghost">
                {t('auth.signOut')}
              </Link>
            </nav>
          )}
        </div>
      </header>
      <main id="main" className="main" tabIndex={-1}>
        {props.children}
        {props.signedIn && <InstallButton />}
      </main>
      <UpdatePrompt />
    </div>
  )
}
