import { openTokenVault } from '../storage/token-vault.ts'
import { createAuthProxy } from './auth-proxy.ts'
import { isLogoutMessage, LOGOUT_CHANNEL, type LogoutMessage, netConfig } from './config.ts'
import { webLocks } from './locks.ts'

/**
 * The page side of the auth proxy. It sits where the service worker sits —
 * in front of `fetch` — so app code is the same with or without a worker.
 * While a worker controls the page, API requests go straight through to it;
 * otherwise (first load, hard reload, iOS Telegram) this runs the same core.
 */
export function installPageProxy(): void {
  const nativeFetch = globalThis.fetch.bind(globalThis)
  const channel =
    'BroadcastChannel' in globalThis ? new BroadcastChannel(LOGOUT_CHANNEL) : undefined

  const goTo = (location: string) => {
    if (window.location.pathname !== location) window.location.assign(location)
  }

  const proxy = createAuthProxy({
    config: netConfig,
    vault: openTokenVault(),
    fetch: nativeFetch,
    locks: webLocks(),
    onLogout(location) {
      channel?.postMessage({ type: 'auth:logout', location } satisfies LogoutMessage)
      goTo(location)
    },
  })

  globalThis.fetch = (input, init) => {
    const url = input instanceof Request ? input.url : String(input)
    if (navigator.serviceWorker?.controller || !proxy.isApiUrl(url)) return nativeFetch(input, init)
    return proxy.handle(new Request(input, init))
  }

  // Whoever logged out — another tab, or the worker for a window it could not
  // navigate — tells this window to follow.
  const follow = (event: MessageEvent) => {
    if (isLogoutMessage(event.data)) goTo(event.data.location)
  }
  channel?.addEventListener('message', follow)
  navigator.serviceWorker?.addEventListener('message', follow)
}
