import { onlineManager, useIsRestoring } from '@tanstack/react-query'
import { useId, useSyncExternalStore } from 'react'
import { useI18n } from '../i18n/i18n.tsx'
import { Alert, Skeleton } from './components.tsx'

/**
 * One answer to "are we online?" for the whole app: TanStack Query's
 * onlineManager, fed by the browser. It assumes "online" until an event says
 * otherwise, so a cold start without a network would fail every query instead
 * of waiting: the browser's own reading is taken at start as well.
 */
export function followBrowserConnection(): void {
  onlineManager.setEventListener((setOnline) => {
    const update = () => setOnline(navigator.onLine)
    update()
    window.addEventListener('online', update)
    window.addEventListener('offline', update)
    return () => {
      window.removeEventListener('online', update)
      window.removeEventListener('offline', update)
    }
  })
}

const subscribe = (listener: () => void) => onlineManager.subscribe(listener)
const isOnline = () => onlineManager.isOnline()

export function useOnline(): boolean {
  return useSyncExternalStore(subscribe, isOnline)
}

/**
 * For an action that needs the server: while offline it is disabled, and says
 * why next to it — never queued to run later. Spread `disabledProps` on the
 * button and render `reason` beside it.
 */
export function useNeedsServer() {
  const { t } = useI18n()
  const online = useOnline()
  const id = useId()
  return {
    offline: !online,
    disabledProps: online ? {} : { disabled: true, 'aria-describedby': id },
    reason: online ? null : (
      <p id={id} className="offline-reason">
        {t('offline.reason')}
      </p>
    ),
  }
}

/**
 * What a screen shows while its data is not there yet: a skeleton in the
 * shape of what comes (a page, a list, a card), or — when the query waits for
 * a connection and nothing is stored on this device — that it will load once
 * back online, instead of shimmering forever.
 */
export function Pending(props: {
  paused: boolean
  shape?: 'rows' | 'lines' | 'card' | 'page'
  count?: number
}) {
  const { t } = useI18n()
  // While the stored cache is read, "not stored" may not be true yet.
  const restoring = useIsRestoring()
  if (props.paused && !restoring) return <Alert tone="warning">{t('offline.notStored')}</Alert>
  return <Skeleton label={t('app.loading')} shape={props.shape ?? 'page'} count={props.count} />
}
