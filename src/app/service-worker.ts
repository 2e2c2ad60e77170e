import type { Workbox } from 'workbox-window'

type Listener = () => void

/**
 * The update handshake: a new worker installs in the background and waits;
 * the person chooses when to switch (src/app/pwa.tsx), then the page reloads
 * under the new version.
 */
let waiting: Workbox | undefined
const listeners = new Set<Listener>()
const notify = () => {
  for (const listener of listeners) listener()
}

export const updateStore = {
  subscribe(listener: Listener) {
    listeners.add(listener)
    return () => listeners.delete(listener)
  },
  isWaiting: () => waiting !== undefined,
  dismiss() {
    waiting = undefined
    notify()
  },
  apply() {
    const workbox = waiting
    if (!workbox) return
    workbox.addEventListener('controlling', () => window.location.reload())
    workbox.messageSkipWaiting()
  },
}

/**
 * Registers /sw.js through workbox-window, a chunk of its own: main.tsx calls
 * this after the first render, which it has no part in (issue 16).
 */
export async function registerServiceWorker(): Promise<void> {
  // Telegram's iOS web view has no service workers: the page proxy covers it.
  if (!('serviceWorker' in navigator) || import.meta.env.DEV) return
  const { Workbox } = await import('workbox-window')
  const workbox = new Workbox('/sw.js', { scope: '/' })
  workbox.addEventListener('waiting', () => {
    waiting = workbox
    notify()
  })
  await workbox.register()
}
