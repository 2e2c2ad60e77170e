import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { detectLanguage, loadLanguage } from '../i18n/i18n.tsx'
import { installPageProxy } from '../net/page-proxy.ts'
import { loadMiniApp } from '../telegram/mini-app.tsx'
import { App } from './app.tsx'
import { prefetchFirstScreen } from './boot.ts'
import { startOfflineCache } from './offline-cache.ts'
import { afterFirstScreen } from './pwa.tsx'
import { createQueryClient } from './query-client.ts'
import { registerServiceWorker } from './service-worker.ts'
import '../ui/tokens.css'
import '../ui/ui.css'

// The theme chosen on this device (src/ui/theme.ts) before the first paint.
try {
  document.documentElement.dataset.theme = localStorage.theme
} catch {}

// Before anything can call the API: until a service worker controls this
// page, the page itself runs the auth proxy.
installPageProxy()

// Outside React: StrictMode runs effects twice, and the cache must be restored once.
const queryClient = createQueryClient()
const { restored } = startOfflineCache(queryClient)
// The first screen's reads all leave at once, before its chunk has arrived.
void prefetchFirstScreen(queryClient, restored)

// The first render speaks the person's language: its catalogue (a lazy chunk
// for anything but English, precached by the worker) is in memory before it,
// so a Russian start never flashes English. Resolves to English if it fails.
// Inside Telegram the SDK (a lazy chunk, never loaded in a browser) starts
// alongside, so the first render already wears the chat's theme.
void Promise.all([loadLanguage(detectLanguage()), loadMiniApp()]).then(([language, miniApp]) => {
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <App queryClient={queryClient} restored={restored} language={language} miniApp={miniApp} />
    </StrictMode>,
  )
  // The worker (and workbox-window, a chunk of its own) once the first screen
  // has its answers and the page is idle: on a first visit its download, and
  // the install check it sets off, would take bytes and connections it needs.
  afterFirstScreen(queryClient, () =>
    whenIdle(() => {
      registerServiceWorker().catch((error: unknown) =>
        console.error('[sw] registration failed', error),
      )
    }),
  )
})

/** After the load event, when the main thread is next idle (within 5 s). */
function whenIdle(run: () => void) {
  const idle = () => {
    if ('requestIdleCallback' in window) requestIdleCallback(run, { timeout: 5_000 })
    else setTimeout(run, 0)
  }
  if (document.readyState === 'complete') idle()
  else window.addEventListener('load', idle, { once: true })
}
