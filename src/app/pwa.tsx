import type { QueryClient } from '@tanstack/react-query'
import { lazy, Suspense, useEffect, useSyncExternalStore } from 'react'
import { useOnline } from '../ui/online.tsx'
import { updateStore } from './service-worker.ts'

/** The toast, loaded with its first use: no first screen needs it. */
const UpdateToast = lazy(() => import('./update-toast.tsx'))

/** "A new version is ready": shown while a new worker waits, until the person decides. */
export function UpdatePrompt() {
  const waiting = useSyncExternalStore(updateStore.subscribe, updateStore.isWaiting)
  if (!waiting) return null
  return (
    <Suspense fallback={null}>
      <UpdateToast />
    </Suspense>
  )
}

/** The notice, loaded when the connection first drops: no online screen needs it. */
const OfflineNotice = lazy(() => import('./offline-notice.tsx'))

let screenShown = false
const shownListeners = new Set<() => void>()
const subscribeShown = (listener: () => void) => {
  shownListeners.add(listener)
  return () => shownListeners.delete(listener)
}

/**
 * Rendered with each screen's page once it is on screen (routes.tsx): the
 * offline notice waits for the first, so an offline start paints the
 * balances before it loads and draws the notice (it came first, and cost the
 * offline start ~80 ms with the CPU slowed 4×).
 */
export function ScreenShown() {
  useEffect(() => {
    if (screenShown) return
    screenShown = true
    for (const listener of shownListeners) listener()
  }, [])
  return null
}

/**
 * Runs `run` once the first screen is shown and every read it started is
 * answered: what only later visits need waits behind the balances — the
 * service worker, and with it the browser's install check, which downloads
 * the manifest's icon (issue 27: 16 KB of a first visit's).
 */
export function afterFirstScreen(queryClient: QueryClient, run: () => void) {
  const settled = () => {
    if (queryClient.isFetching() === 0) return run()
    const stop = queryClient.getQueryCache().subscribe(() => {
      if (queryClient.isFetching() > 0) return
      stop()
      run()
    })
  }
  if (screenShown) return settled()
  const stop = subscribeShown(() => {
    stop()
    settled()
  })
}

/**
 * While offline: that we are, and how old what is on screen is (src/app/offline-notice.tsx).
 */
export function OfflineBanner() {
  const online = useOnline()
  const shown = useSyncExternalStore(subscribeShown, () => screenShown)
  if (online || !shown) return null
  return (
    <Suspense fallback={null}>
      <OfflineNotice />
    </Suspense>
  )
}
