import type { PushMessage } from '../contract/events.ts'

/**
 * Web push in the service worker (issue 20): a `push` shows the event as a
 * notification; a tap on it opens the screen it is about, in a window of the
 * app when one is open, else a new one.
 */

export interface ShownNotification {
  title: string
  options: NotificationOptions & { data: { path: string } }
}

/** A push message as the notification to show; a message not ours shows a generic one. */
export function notificationFor(data: unknown, appName: string): ShownNotification {
  const message = (data ?? {}) as Partial<PushMessage>
  // Only a path of this app: "//host" would be another origin.
  const path =
    typeof message.path === 'string' && /^\/(?![/\\])/.test(message.path) ? message.path : '/'
  return {
    title: typeof message.title === 'string' && message.title ? message.title : appName,
    options: {
      body: typeof message.body === 'string' ? message.body : '',
      icon: '/icons/icon-192.png',
      badge: '/icons/icon-192.png',
      // One notification per event: a redelivered push replaces, never doubles.
      tag: typeof message.event_id === 'string' ? message.event_id : undefined,
      data: { path },
    },
  }
}

/** The part of a window client a tap needs (ServiceWorker WindowClient). */
export interface TapWindow {
  url: string
  focus(): Promise<unknown>
  navigate(url: string): Promise<unknown>
}

/** Opens `path`: an app window already there is focused and sent to it; else a new window. */
export async function openFromTap(
  path: string,
  windows: readonly TapWindow[],
  openWindow: (url: string) => Promise<unknown>,
  origin: string,
): Promise<void> {
  const target = new URL(path, origin).href
  const open = windows.find((window) => new URL(window.url).origin === origin)
  if (!open) {
    await openWindow(target)
    return
  }
  if (open.url !== target) await open.navigate(target).catch(() => null)
  await open.focus()
}

/** Reads a push event's JSON, or undefined when it carries none (or not JSON). */
export function pushData(event: { data: { json(): unknown } | null }): unknown {
  try {
    return event.data?.json()
  } catch {
    return undefined
  }
}
