import type { PushMessage } from '../contract/events.ts'

/**
 * Web push in the service worker (issue 20): a `push` shows the event as a
 * notification; a tap on it opens the screen it is about, in a window of the
 * app when one is open, else a new one.
 */

/** A button on the notification (the Notifications API's actions, not in every lib's types). */
export interface NotificationAction {
  action: string
  title: string
}

export interface ShownNotification {
  title: string
  options: NotificationOptions & {
    data: { path: string; lockdown?: string }
    actions?: NotificationAction[]
  }
}

/** The action of an alert that can mean theft: "That wasn't me — lock" (issue 30). */
export const LOCKDOWN_ACTION = 'lockdown'

/** A push message as the notification to show; a message not ours shows a generic one. */
export function notificationFor(data: unknown, appName: string): ShownNotification {
  const message = (data ?? {}) as Partial<PushMessage>
  // Only a path of this app: "//host" would be another origin.
  const path =
    typeof message.path === 'string' && /^\/(?![/\\])/.test(message.path) ? message.path : '/'
  const lockdown = message.lockdown
  const wayOut =
    typeof lockdown?.token === 'string' && typeof lockdown.button === 'string' && lockdown.button
      ? lockdown
      : undefined
  return {
    title: typeof message.title === 'string' && message.title ? message.title : appName,
    options: {
      body: typeof message.body === 'string' ? message.body : '',
      icon: '/icons/icon-192.png',
      badge: '/icons/icon-192.png',
      // One notification per event: a redelivered push replaces, never doubles.
      tag: typeof message.event_id === 'string' ? message.event_id : undefined,
      data: { path, ...(wayOut && { lockdown: wayOut.token }) },
      ...(wayOut && { actions: [{ action: LOCKDOWN_ACTION, title: wayOut.button }] }),
    },
  }
}

/**
 * A tap on "That wasn't me": the alert's one-time token goes to
 * POST /api/v2/lockdown/link (through `send`, the worker's API proxy, which
 * names the tenant). Answers what to show: the server's "Done: …" in the
 * person's language, or why it did not work.
 */
export async function lockFromTap(
  token: string,
  send: (request: Request) => Promise<Response>,
  origin: string,
): Promise<{ title: string; body: string }> {
  const failed = 'This button no longer works. Open the app to lock your account.'
  try {
    const answer = await send(
      new Request(new URL('/api/v2/lockdown/link', origin), {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ token }),
      }),
    )
    const said = (await answer.json().catch(() => ({}))) as { message?: string; detail?: string }
    return answer.ok
      ? { title: 'Finplatform', body: said.message ?? '' }
      : { title: 'Finplatform', body: said.detail ?? failed }
  } catch {
    return { title: 'Finplatform', body: failed }
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
