import { useMutation } from '@tanstack/react-query'
import { useEffect, useState } from 'react'
import type { LockdownDone } from '../../../contract/lockdown.ts'
import { errorMessage } from '../../i18n/error-message.ts'
import { useI18n } from '../../i18n/i18n.tsx'
import { api } from '../../net/api.ts'
import { hasSession } from '../../net/session.ts'
import { paths } from '../../paths.ts'
import { Alert, Notice, Spinner } from '../../ui/components.tsx'
import { PageHeader } from '../../ui/page-header.tsx'

/** The token of a security e-mail's link, from the fragment (`/lockdown#token=…`). */
export function tokenIn(hash: string): string | undefined {
  const token = new URLSearchParams(hash.replace(/^#/, '')).get('token')
  return token || undefined
}

/**
 * "Wasn't you? Lock your account in one tap" (issue 30): the security
 * e-mail's link opens here, signed in or not. The token rides in the
 * fragment (never sent to a server, nor in a Referer); it is read once,
 * wiped from the address bar and history, and sent to the link route, which
 * locks the person it names.
 */
export default function LockdownLinkPage() {
  const { t } = useI18n()
  const [token] = useState(() => tokenIn(window.location.hash))
  const lock = useMutation({
    mutationFn: (value: string) => api.v2.post<LockdownDone>('/lockdown/link', { token: value }),
  })
  const { mutate } = lock
  // Signed in here, the way on is the security screen; else signing in.
  const [signedIn, setSignedIn] = useState(false)
  useEffect(() => {
    window.history.replaceState(null, '', window.location.pathname)
    if (token) mutate(token)
  }, [token, mutate])
  useEffect(() => {
    let current = true
    void hasSession().then((yes) => current && setSignedIn(yes))
    return () => {
      current = false
    }
  }, [])
  return (
    <>
      <PageHeader id="lockdown-title" title={t('lockdown.link.title')} />
      {!token ? (
        <Alert>{t('lockdown.link.missing')}</Alert>
      ) : lock.isSuccess ? (
        <Notice>{lock.data.message}</Notice>
      ) : lock.isError ? (
        <Alert>{errorMessage(lock.error, t)}</Alert>
      ) : (
        <Spinner label={t('lockdown.link.locking')} />
      )}
      <p>
        {signedIn ? (
          <a href={paths.security}>{t('lockdown.link.security')}</a>
        ) : (
          <a href={paths.signIn}>{t('lockdown.link.signIn')}</a>
        )}
      </p>
    </>
  )
}
