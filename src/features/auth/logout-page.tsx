import { useQueryClient } from '@tanstack/react-query'
import { useEffect } from 'react'
import { useLocation } from 'wouter'
import { useI18n } from '../../i18n/i18n.tsx'
import { signOut } from '../../net/session.ts'
import { paths } from '../../paths.ts'
import { logoutDestination } from '../../queries/tenant.ts'
import { forgetPersistedQueries } from '../../storage/query-persister.ts'
import { isTelegram } from '../../telegram/launch.ts'
import { Spinner } from '../../ui/components.tsx'
import { forgetConfirmations } from '../../ui/confirm-once.ts'

/**
 * docs/product.md §2: the logout location. Whoever sends a window here — the person,
 * or the auth proxy after an unrecoverable 401 — the tokens, every cached
 * answer, in memory and on disk, and the tab's unanswered confirmations are
 * gone before sign-in shows.
 */
export default function LogoutPage() {
  const { t } = useI18n()
  const queryClient = useQueryClient()
  const [, navigate] = useLocation()
  useEffect(() => {
    let cancelled = false
    void (async () => {
      // Read before the cache is cleared: the tenant's own page after a sign-out, if it has one.
      // Not in the Mini App: every logout there is the proxy giving up, and the app
      // signs in again with Telegram (docs/product.md §4) — a web page would strand it.
      const destination = isTelegram() ? undefined : logoutDestination(queryClient)
      await signOut()
      // A confirmation left waiting is this person's: never resumed or reused for the next.
      forgetConfirmations()
      await queryClient.cancelQueries()
      queryClient.clear()
      // After the memory: nothing is left in it to be written back.
      await forgetPersistedQueries()
      if (cancelled) return
      if (destination) window.location.replace(destination)
      else navigate(paths.signIn, { replace: true })
    })()
    return () => {
      cancelled = true
    }
  }, [queryClient, navigate])
  return <Spinner label={t('auth.signingOut')} />
}
