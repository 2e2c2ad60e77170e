import type { LogoutMessage } from '../src/net/config.ts'

/** The part of a window client the logout needs (ServiceWorker WindowClient). */
export interface WindowLike {
  url: string
  navigate(url: string): Promise<unknown>
  postMessage(message: unknown): void
}

/**
 * Sends every window of the app to `location`. The worker can navigate only
 * the windows it controls; navigate() rejects (or resolves null) for any other
 * window — opened before the worker took over, or after a hard reload — so
 * that window is told to go itself (src/net/page-proxy.ts listens).
 */
export async function sendEveryWindowTo(windows: readonly WindowLike[], location: string) {
  const message: LogoutMessage = { type: 'auth:logout', location }
  await Promise.all(
    windows.map(async (client) => {
      if (new URL(client.url).pathname === location) return
      const navigated = await client.navigate(location).catch(() => null)
      if (!navigated) client.postMessage(message)
    }),
  )
}
