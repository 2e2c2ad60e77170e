import { LAUNCH_PARAMS_KEY, type TelegramLaunch } from './launch.ts'

/**
 * What the app tells Telegram, and how it wears the chat's theme, without
 * the SDK: so neither depends on the SDK accepting the launch. Clients before
 * Bot API 8.0 send launch data without `signature`, which the SDK's schema
 * requires; and the SDK is a lazy chunk that may fail to load at all.
 */

/** The theme parameters as CSS variables, named as the SDK's bindCssVars names them. */
export function themeVariables(params: Record<string, string>): Record<string, string> {
  const variables: Record<string, string> = {}
  for (const [key, value] of Object.entries(params)) {
    if (!/^#[0-9a-f]{3,8}$/i.test(value)) continue
    variables[`--tg-theme-${key.replace(/_/g, '-')}`] = value
  }
  return variables
}

/** Puts the launch's theme on `root` through the CSSOM (which the CSP allows, unlike a style attribute). */
export function applyThemeParams(root: HTMLElement, params: Record<string, string>): void {
  for (const [name, value] of Object.entries(themeVariables(params))) {
    root.style.setProperty(name, value)
  }
}

interface TelegramWindow {
  TelegramWebviewProxy?: { postEvent?: (type: string, data: string) => void }
  external?: { notify?: (message: string) => void }
  parent?: { postMessage: (message: string, origin: string) => void }
  self?: unknown
  top?: unknown
}

/**
 * Sends one event to the Telegram client by the transport it offers — the
 * mobile clients' proxy, the old desktop's `external.notify`, or the parent
 * frame of Telegram Web — the three the SDK's own postEvent uses.
 * Answers whether there was a client to send it to.
 */
export function postToTelegram(
  scope: TelegramWindow,
  type: string,
  data?: Record<string, unknown>,
): boolean {
  const proxy = scope.TelegramWebviewProxy
  if (typeof proxy?.postEvent === 'function') {
    proxy.postEvent(type, JSON.stringify(data ?? {}))
    return true
  }
  const message = JSON.stringify({ eventType: type, eventData: data })
  try {
    if (typeof scope.external?.notify === 'function') {
      scope.external.notify(message)
      return true
    }
  } catch {
    // Some engines throw on reading window.external: not that transport.
  }
  if (scope.parent && scope.self !== scope.top) {
    scope.parent.postMessage(message, 'https://web.telegram.org')
    return true
  }
  return false
}

/**
 * Puts the SDK's copy of the launch in sessionStorage, where its own checks
 * (`isTMA`, behind every `isAvailable`) read it when the URL's launch does
 * not parse — as launch data without `signature` does not.
 */
export function keepLaunchForSdk(
  scope: { sessionStorage?: Pick<Storage, 'setItem'> },
  launch: TelegramLaunch,
): void {
  try {
    scope.sessionStorage?.setItem(LAUNCH_PARAMS_KEY, JSON.stringify(launchParamsForSdk(launch)))
  } catch {
    // Reading sessionStorage itself throws in some webviews; setting it when full does too.
    // Storage refused: the SDK reads the URL, which does for a launch with `signature`.
  }
}

/**
 * The launch parameters as the SDK is given them: without the init data,
 * which the SDK would only parse (and refuse when it lacks `signature`) —
 * the app sends the init data, untouched, to its own server, which checks it.
 */
export function launchParamsForSdk(launch: TelegramLaunch): string {
  const params = new URLSearchParams(launch.raw)
  params.delete('tgWebAppData')
  return params.toString()
}
