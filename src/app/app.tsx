import { IsRestoringProvider, type QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { lazy, type ReactNode, Suspense, useEffect, useState } from 'react'
import { I18nProvider, type Language, useI18n, withMessages } from '../i18n/i18n.tsx'
import { isTelegram } from '../telegram/launch.ts'
import { MiniAppProvider } from '../telegram/mini-app.tsx'
import type { MiniAppControls } from '../telegram/sdk.ts'
import { Skeleton } from '../ui/components.tsx'
import { Routes } from './routes.tsx'
import { StepUpHost } from './step-up-host.tsx'

/** Only in Telegram, with its history tracking: not in a browser's first download. */
const TelegramBackButton = lazy(() =>
  import('../telegram/controls.tsx').then((module) => ({ default: module.TelegramBackButton })),
)
const TelegramSession = lazy(() =>
  withMessages(import('../features/auth/telegram-session.tsx'), 'auth'),
)

/**
 * `restored` settles once the query cache stored on this device is in memory
 * (src/app/offline-cache.ts). Until then no query asks the network, so a
 * screen shows the stored answer first, never a spinner and then a jump.
 */
export function App(props: {
  queryClient: QueryClient
  restored: Promise<void>
  /** The starting language, its catalogue already loaded (src/app/main.tsx). */
  language: Language
  /**
   * Inside Telegram: the started Mini App (src/telegram/); undefined in a
   * browser, and in Telegram when the SDK failed to load or start — the app
   * is still the Mini App then (`isTelegram()`), only without Telegram's buttons.
   */
  miniApp?: MiniAppControls
}) {
  const restoring = useRestoring(props.restored)
  return (
    <QueryClientProvider client={props.queryClient}>
      <IsRestoringProvider value={restoring}>
        <I18nProvider initial={props.language}>
          <MiniAppProvider controls={props.miniApp}>
            {isTelegram() ? (
              <>
                <Suspense fallback={null}>
                  <TelegramBackButton />
                </Suspense>
                <TelegramStart>
                  <Routes />
                </TelegramStart>
              </>
            ) : (
              <Routes />
            )}
            <StepUpHost />
          </MiniAppProvider>
        </I18nProvider>
      </IsRestoringProvider>
    </QueryClientProvider>
  )
}

/** In the Mini App, the person is signed in with Telegram (or signed up) before any route shows. */
function TelegramStart(props: { children: ReactNode }) {
  const { t } = useI18n()
  return (
    <Suspense fallback={<Skeleton label={t('app.loading')} shape="page" />}>
      <TelegramSession>{props.children}</TelegramSession>
    </Suspense>
  )
}

function useRestoring(restored: Promise<void>): boolean {
  const [restoring, setRestoring] = useState(true)
  useEffect(() => {
    let current = true
    void restored.finally(() => {
      if (current) setRestoring(false)
    })
    return () => {
      current = false
    }
  }, [restored])
  return restoring
}
