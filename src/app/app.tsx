import { IsRestoringProvider, type QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { useEffect, useState } from 'react'
import { I18nProvider, type Language } from '../i18n/i18n.tsx'
import { Routes } from './routes.tsx'

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
}) {
  const restoring = useRestoring(props.restored)
  return (
    <QueryClientProvider client={props.queryClient}>
      <IsRestoringProvider value={restoring}>
        <I18nProvider initial={props.language}>
          <Routes />
        </I18nProvider>
      </IsRestoringProvider>
    </QueryClientProvider>
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
