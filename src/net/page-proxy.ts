import { APP_ENV_HEADER } from '../../contract/tenancy.ts'
import { openTokenVault } from '../storage/token-vault.ts'
import { isTelegram, telegramLaunch } from '../telegram/launch.ts'
import { createAuthProxy, INIT_DATA_HEADER } from './auth-proxy.ts'
import { isLogoutMessage, LOGOUT_CHANNEL, type LogoutMessage, netConfig } from './config.ts'
import { webLocks } from './locks.ts'

/**
 * The page side of the auth proxy. It sits where the service worker sits —
 * in front of `fetch` — so app code is the same with or without a worker.
 * While a worker controls the page, API requests go straight through to it;
 * otherwise (first load, hard reload, iOS Telegram) this runs the same core.
 *
 * In the Telegram Mini App every API request says so (`X-App-Env: telegram`)
 * and carries the launch init data for whichever proxy handles it, so the
 * worker knows as well as the page, and either can sign in again (docs/product.md §4).
 */
/** What the Mini App tells every proxy on each API request; nothing outside Telegram. */
export function launchHeaders(launch = telegramLaunch()): Record<string, string> {
  return launch ? { [APP_ENV_HEADER]: 'telegram', [INIT_DATA_HEADER]: launch.initData } : {}
}

/** `request` with `headers` added (a new Request: the original may be immutable). */
export function withHeaders(request: Request, headers: Record<string, string>): Request {
  const entries = Object.entries(headers)
  if (entries.length === 0) return request
  const merged = new Headers(request.headers)
  for (const [name, value] of entries) merged.set(name, value)
  return new Request(request, { headers: merged })
}

export function installPageProxy(): void {
  const nativeFetch = globalThis.fetch.bind(globalThis)
  const channel =
    'BroadcastChannel' in globalThis ? new BroadcastChannel(LOGOUT_CHANNEL) : undefined

  const goTo = (location: string) => {
    if (window.location.pathname !== location) window.location.assign(location)
  }

  const launch = telegramLaunch()
  const proxy = createAuthProxy({
    config: { ...netConfig, appEnv: isTelegram() ? 'telegram' : netConfig.appEnv },
    vault: openTokenVault(),
    fetch: nativeFetch,
    locks: webLocks(),
    onLogout(location) {
      channel?.postMessage({ type: 'auth:logout', location } satisfies LogoutMessage)
      goTo(location)
    },
  })

  /** The request as the app made it, plus what the Mini App tells every proxy. */
  const stated = (input: RequestInfo | URL, init: RequestInit | undefined): Request =>
    withHeaders(new Request(input, init), launchHeaders(launch))

  globalThis.fetch = (input, init) => {
    const url = input instanceof Request ? input.url : String(input)
    if (!proxy.isApiUrl(url)) return nativeFetch(input, init)
    if (navigator.serviceWorker?.controller) {
      return launch ? nativeFetch(stated(input, init)) : nativeFetch(input, init)
    }
    return proxy.handle(stated(input, init))
  }

  // Whoever logged out — another tab, or the worker for a window it could not
  // navigate — tells this window to follow.
  const follow = (event: MessageEvent) => {
    if (isLogoutMessage(event.data)) goTo(event.data.location)
  }
  channel?.addEventListener('message', follow)
  navigator.serviceWorker?.addEventListener('message', follow)
}
