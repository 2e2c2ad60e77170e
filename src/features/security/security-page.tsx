import { useQuery } from '@tanstack/react-query'
import { useState } from 'react'
import { Link } from 'wouter'
import type { Passkey } from '../../../contract/security.ts'
import { formatMoment } from '../../i18n/error-message.ts'
import { useI18n } from '../../i18n/i18n.tsx'
import { paths } from '../../paths.ts'
import { isTelegram } from '../../telegram/launch.ts'
import { Button, Notice } from '../../ui/components.tsx'
import { ConfirmDialog } from '../../ui/confirm-dialog.tsx'
import { ErrorSummary } from '../../ui/error-summary.tsx'
import { useNeedsServer } from '../../ui/online.tsx'
import { PageHeader } from '../../ui/page-header.tsx'
import { LockdownSection } from './lockdown-section.tsx'
import { useAddPasskey, useRemovePasskey } from './mutations.ts'
import { PasskeyError } from './passkey-error.tsx'
import { PasswordSection } from './password-section.tsx'
import { passkeysQuery, sessionsQuery } from './queries.ts'
import { deviceName, Loaded } from './security-lists.tsx'
import { Sessions } from './sessions-section.tsx'
import { passkeysSupported } from './webauthn.ts'

/**
 * Sign-in and security (under Profile): the password (change it, or set a
 * first one), the person's passkeys — add, see when each was last used,
 * remove — and every place they are signed in, with a way to sign any other
 * one out, or all of them at once.
 */
export default function SecurityPage() {
  const { t } = useI18n()
  return (
    <>
      <PageHeader
        id="security-title"
        title={t('security.title')}
        lead={t('security.lead')}
        back={{ href: paths.profile, label: t('security.back') }}
      />
      <LockdownSection />
      <PasswordSection />
      <Passkeys />
      <Sessions />
    </>
  )
}

function Passkeys() {
  const { t, language } = useI18n()
  const list = useQuery(passkeysQuery())
  const add = useAddPasskey()
  const server = useNeedsServer()
  const [removing, setRemoving] = useState<Passkey | undefined>()
  const remove = useRemovePasskey()
  const supported = passkeysSupported()

  return (
    <section className="card stack" aria-labelledby="passkeys-title">
      <h2 id="passkeys-title">{t('passkey.title')}</h2>
      <p className="muted">{t('passkey.lead')}</p>
      <Loaded query={list} loading={t('passkey.loading')}>
        {(passkeys) =>
          passkeys.length === 0 ? (
            <p>{t('passkey.empty')}</p>
          ) : (
            <ul className="security-list">
              {passkeys.map((passkey) => (
                <li key={passkey.id} className="security-row">
                  <div className="security-row-text">
                    <p className="security-row-title">{passkey.name}</p>
                    <p className="muted">
                      {t('passkey.added', {
                        date: formatMoment(passkey.created_at, language) ?? '',
                      })}
                      {' · '}
                      {passkey.last_used_at
                        ? t('passkey.lastUsed', {
                            date: formatMoment(passkey.last_used_at, language) ?? '',
                          })
                        : t('passkey.neverUsed')}
                    </p>
                  </div>
                  <Button
                    variant="quiet"
                    onClick={() => setRemoving(passkey)}
                    aria-label={t('passkey.removeNamed', { name: passkey.name })}
                    {...server.disabledProps}
                  >
                    {t('passkey.remove')}
                  </Button>
                </li>
              ))}
            </ul>
          )
        }
      </Loaded>
      {supported ? (
        <div className="stack">
          <div className="row">
            <Button busy={add.isPending} onClick={() => add.mutate()} {...server.disabledProps}>
              {add.isPending ? t('passkey.adding') : t('passkey.add')}
            </Button>
          </div>
          {add.isSuccess && <Notice>{t('passkey.added.notice')}</Notice>}
          <PasskeyError error={add.error} />
          {server.reason}
        </div>
      ) : (
        <Notice>{t(isTelegram() ? 'passkey.telegram' : 'passkey.unsupported')}</Notice>
      )}
      <ConfirmDialog
        open={removing !== undefined}
        title={t('passkey.removeTitle', { name: removing?.name ?? '' })}
        message={t('passkey.removeBody')}
        confirmLabel={t('passkey.remove')}
        busy={remove.isPending}
        onConfirm={() =>
          removing && remove.mutate(removing.id, { onSuccess: () => setRemoving(undefined) })
        }
        onCancel={() => {
          remove.reset()
          setRemoving(undefined)
        }}
      >
        {remove.isError && <ErrorSummary error={remove.error} />}
      </ConfirmDialog>
    </section>
  )
}

/** How many sessions the Profile page names before "see all". */
const SUMMARY_SESSIONS = 3

/**
 * The Profile page's view of where the person is signed in: this device
 * first, then the most recently active, each with when it was last seen,
 * and a link to the full list where any can be signed out.
 */
export function SessionsSummary() {
  const { t, language } = useI18n()
  const list = useQuery(sessionsQuery())
  return (
    <section className="card stack" aria-labelledby="sessions-summary-title">
      <h2 id="sessions-summary-title">{t('sessions.title')}</h2>
      <Loaded query={list} loading={t('sessions.loading')}>
        {(sessions) => {
          const shown = [...sessions]
            .sort(
              (a, b) =>
                Number(b.current) - Number(a.current) ||
                b.last_seen_at.localeCompare(a.last_seen_at),
            )
            .slice(0, SUMMARY_SESSIONS)
          return (
            <>
              <ul className="security-list">
                {shown.map((session) => (
                  <li key={session.id} className="security-row">
                    <div className="security-row-text">
                      <p className="security-row-title">
                        {deviceName(session, t)}
                        {session.current && (
                          <span className="security-badge">{t('sessions.thisDevice')}</span>
                        )}
                      </p>
                      <p className="muted">
                        {t('sessions.lastSeenAt', {
                          date: formatMoment(session.last_seen_at, language) ?? '',
                        })}
                      </p>
                    </div>
                  </li>
                ))}
              </ul>
              <p>
                <Link href={paths.security}>
                  {sessions.length > shown.length
                    ? t('sessions.seeAll', { count: String(sessions.length) })
                    : t('sessions.manage')}
                </Link>
              </p>
            </>
          )
        }}
      </Loaded>
    </section>
  )
}
