/// <reference lib="webworker" />
import { clientsClaim } from 'workbox-core'
import {
  cleanupOutdatedCaches,
  createHandlerBoundToURL,
  precacheAndRoute,
} from 'workbox-precaching'
import { NavigationRoute, registerRoute } from 'workbox-routing'
import { createAuthProxy } from '../src/net/auth-proxy.ts'
import { netConfig } from '../src/net/config.ts'
import { webLocks } from '../src/net/locks.ts'
import { openRememberingVault } from '../src/storage/remembering-vault.ts'
import { sendEveryWindowTo } from './logout.ts'
import { LOCKDOWN_ACTION, lockFromTap, notificationFor, openFromTap, pushData } from './push.ts'

declare const self: ServiceWorkerGlobalScope

const proxy = createAuthProxy({
  config: netConfig,
  vault: openRememberingVault(),
  fetch: (request) => fetch(request),
  locks: webLocks(),
  onLogout: async (location) =>
    sendEveryWindowTo(
      await self.clients.matchAll({ type: 'window', includeUncontrolled: true }),
      location,
    ),
})

// Registered before workbox's routes: API calls never touch the precache.
self.addEventListener('fetch', (event) => {
  if (event.request.mode === 'navigate' || !proxy.isApiUrl(event.request.url)) return
  event.respondWith(proxy.handle(event.request))
})

// The app shell: precached at install, served offline; navigations fall back to it.
precacheAndRoute(self.__WB_MANIFEST)
cleanupOutdatedCaches()
registerRoute(
  new NavigationRoute(createHandlerBoundToURL('/index.html'), {
    // The legal pages (public/legal/) are documents of their own, not the app's routes.
    denylist: [/^\/api\//, /^\/metrics$/, /^\/healthz$/, /^\/legal\//],
  }),
)

// A new version waits until the person accepts the update prompt (src/app/pwa.tsx; the
// handshake is src/app/service-worker.ts, whose messageSkipWaiting() sends SKIP_WAITING).
self.addEventListener('message', (event) => {
  if ((event.data as { type?: string } | null)?.type === 'SKIP_WAITING') void self.skipWaiting()
})
clientsClaim()

// Web push (issue 20): show the event; a tap opens the screen it is about.
self.addEventListener('push', (event) => {
  const { title, options } = notificationFor(pushData(event), 'Finplatform')
  event.waitUntil(self.registration.showNotification(title, options))
})
self.addEventListener('notificationclick', (event) => {
  event.notification.close()
  const data = event.notification.data as { path?: string; lockdown?: string } | null
  // "That wasn't me": lock at once, from the notification, without opening the app.
  if (event.action === LOCKDOWN_ACTION && data?.lockdown) {
    event.waitUntil(
      lockFromTap(data.lockdown, (request) => proxy.handle(request), self.location.origin).then(
        ({ title, body }) =>
          self.registration.showNotification(title, { body, icon: '/icons/icon-192.png' }),
      ),
    )
    return
  }
  const path = data?.path ?? '/'
  event.waitUntil(
    self.clients
      .matchAll({ type: 'window', includeUncontrolled: true })
      .then((windows) =>
        openFromTap(path, windows, (url) => self.clients.openWindow(url), self.location.origin),
      ),
  )
})
