import { useEffect, useState, useSyncExternalStore } from 'react'
import { useI18n } from '../i18n/i18n.tsx'
import { Button } from '../ui/components.tsx'
import { updateStore } from './service-worker.ts'

/** "A new version is ready": shown while a new worker waits, until the person decides. */
export function UpdatePrompt() {
  const { t } = useI18n()
  const waiting = useSyncExternalStore(updateStore.subscribe, updateStore.isWaiting)
  if (!waiting) return null
  return (
    <div className="toast" role="status">
      <span>{t('pwa.updateAvailable')}</span>
      <span className="row">
        <Button variant="ghost" onClick={updateStore.dismiss}>
          {t('pwa.later')}
        </Button>
        <Button onClick={updateStore.apply}>{t('pwa.reload')}</Button>
      </span>
    </div>
  )
}

const onlineStore = {
  subscribe(listener: () => void) {
    window.addEventListener('online', listener)
    window.addEventListener('offline', listener)
    return () => {
      window.removeEventListener('online', listener)
      window.removeEventListener('offline', listener)
    }
  },
  isOnline: () => navigator.onLine,
}

export function OfflineBanner() {
  const { t } = useI18n()
  const online = useSyncExternalStore(onlineStore.subscribe, onlineStore.isOnline)
  if (online) return null
  return (
    <div className="banner" role="status">
      {t('pwa.offline')}
    </div>
  )
}

interface InstallPromptEvent extends Event {
  prompt(): Promise<void>
  userChoice: Promise<{ outcome: 'accepted' | 'dismissed' }>
}

/** Offered only where the browser says the app can be installed (and is not yet). */
export function InstallButton() {
  const { t } = useI18n()
  const [event, setEvent] = useState<InstallPromptEvent>()
  useEffect(() => {
    const capture = (e: Event) => {
      e.preventDefault()
      setEvent(e as InstallPromptEvent)
    }
    const installed = () => setEvent(undefined)
    window.addEventListener('beforeinstallprompt', capture)
    window.addEventListener('appinstalled', installed)
    return () => {
      window.removeEventListener('beforeinstallprompt', capture)
      window.removeEventListener('appinstalled', installed)
    }
  }, [])
  if (!event) return null
  return (
    <Button
      variant="secondary"
      onClick={async () => {
        await event.prompt()
        await event.userChoice
        setEvent(undefined)
      }}
    >
      {t('pwa.install')}
    </Button>
  )
}
