import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { installPageProxy } from '../net/page-proxy.ts'
import { App } from './app.tsx'
import { startOfflineCache } from './offline-cache.ts'
import { createQueryClient } from './query-client.ts'
import { registerServiceWorker } from './service-worker.ts'
import '../ui/tokens.css'
import '../ui/ui.css'

// Before anything can call the API: until a service worker controls this
// page, the page itself runs the auth proxy.
installPageProxy()
registerServiceWorker()

// Outside React: StrictMode runs effects twice, and the cache must be restored once.
const queryClient = createQueryClient()
const { restored } = startOfflineCache(queryClient)

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App queryClient={queryClient} restored={restored} />
  </StrictMode>,
)
