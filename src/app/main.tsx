import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { installPageProxy } from '../net/page-proxy.ts'
import { App } from './app.tsx'
import { registerServiceWorker } from './service-worker.ts'
import '../ui/tokens.css'
import '../ui/ui.css'

// Before anything can call the API: until a service worker controls this
// page, the page itself runs the auth proxy.
installPageProxy()
registerServiceWorker()

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
)
