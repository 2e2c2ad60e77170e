import { isFalsy, telegramEnabled } from '../net/config.ts'

/**
 * Whether the app was opened as a Telegram Mini App, decided synchronously
 * and cheaply before anything renders or calls the API: Telegram puts the
 * launch parameters in the URL hash (`tgWebAppData`, `tgWebAppVersion`, …).
 * The SDK itself (a lazy chunk) is imported only when this says yes.
 *
 * The app's router drops the hash on its first navigation, so the raw
 * parameters are kept in sessionStorage under our own key for a reload. The
 * SDK keeps its copy under `tapps/launchParams` (where `mockTelegramEnv`
 * puts a test's launch too), which is read when ours is not there; the SDK's
 * copy is what src/telegram/bridge.ts makes it, without the init data.
 */
export const LAUNCH_PARAMS_KEY = 'tapps/launchParams'
export const KEPT_LAUNCH_KEY = 'finplatform/telegram-launch'

export interface TelegramLaunch {
  /** The launch parameters as Telegram sent them (a query string). */
  raw: string
  /** The signed init data, sent as-is to `POST /auth/sign-in/telegram`. */
  initData: string
  platform: string
  version: string
  /** Theme colours by Telegram's keys (`bg_color`, …); empty when none were sent. */
  themeParams: Record<string, string>
  /** Opened from an inline query: `sendData` is not available there. */
  botInline: boolean
  /** The launch user's `language_code`, when Telegram sent one. */
  languageCode: string | undefined
  /** The launch user's Telegram id (as text), when the init data names one. */
  userId: string | undefined
  /** The launch user's first name, to greet them by before anything is read from the server. */
  firstName: string | undefined
}

/** The Mini App launch in `raw` launch parameters, or undefined when they are not one. */
export function parseLaunchParams(raw: string): TelegramLaunch | undefined {
  const params = new URLSearchParams(raw.replace(/^[#?]/, ''))
  const initData = params.get('tgWebAppData')
  if (isFalsy(initData)) return undefined
  const user = launchUser(initData!)
  return {
    raw: params.toString(),
    initData: initData!,
    platform: params.get('tgWebAppPlatform') ?? 'unknown',
    version: params.get('tgWebAppVersion') ?? '0',
    themeParams: jsonObject(params.get('tgWebAppThemeParams')),
    botInline: !isFalsy(params.get('tgWebAppBotInline')),
    languageCode: languageOf(user),
    userId: userIdOf(user),
    firstName: firstNameOf(user),
  }
}

function jsonObject(text: string | null): Record<string, string> {
  if (!text) return {}
  try {
    const value = JSON.parse(text) as unknown
    if (typeof value !== 'object' || value === null) return {}
    return Object.fromEntries(
      Object.entries(value).filter(
        (entry): entry is [string, string] => typeof entry[1] === 'string',
      ),
    )
  } catch {
    return {}
  }
}

/** The `user` object of the init data, or undefined when it is missing or not JSON. */
function launchUser(initData: string): Record<string, unknown> | undefined {
  try {
    const user = new URLSearchParams(initData).get('user')
    const value = user ? (JSON.parse(user) as unknown) : undefined
    return typeof value === 'object' && value !== null
      ? (value as Record<string, unknown>)
      : undefined
  } catch {
    return undefined
  }
}

function languageOf(user: Record<string, unknown> | undefined): string | undefined {
  const code = user?.language_code
  return typeof code === 'string' ? code : undefined
}

function firstNameOf(user: Record<string, unknown> | undefined): string | undefined {
  const name = user?.first_name
  return typeof name === 'string' && name.trim() ? name.trim() : undefined
}

function userIdOf(user: Record<string, unknown> | undefined): string | undefined {
  const id = user?.id
  return (typeof id === 'number' && Number.isSafeInteger(id)) || (typeof id === 'string' && id)
    ? String(id)
    : undefined
}

export interface LaunchSources {
  /** `location.hash`, where Telegram puts the launch parameters. */
  hash: string
  /** Where they are kept for reloads; undefined where there is none (a worker). */
  storage: Pick<Storage, 'getItem' | 'setItem'> | undefined
  /** `VITE_TELEGRAM_MINI_APP`: off, this build never acts as a Mini App. */
  enabled: boolean
  /** Whether a Telegram client hosts this page (`telegramHostPresent`). */
  host: boolean
}

/**
 * The launch from the URL hash (kept for reloads), else the one kept earlier
 * in this tab — trusted only when a Telegram client hosts the page. A link
 * with someone's init data in its hash, opened in a plain browser, is no
 * Mini App: nothing there could receive the SDK's events.
 */
export function detectTelegramLaunch(sources: LaunchSources): TelegramLaunch | undefined {
  if (!sources.enabled || !sources.host) return undefined
  const fromHash = parseLaunchParams(sources.hash)
  if (fromHash) {
    try {
      sources.storage?.setItem(KEPT_LAUNCH_KEY, JSON.stringify(fromHash.raw))
    } catch {
      // Storage full or refused: this page still knows; a reload would not.
    }
    return fromHash
  }
  return (
    keptLaunch(sources.storage, KEPT_LAUNCH_KEY) ?? keptLaunch(sources.storage, LAUNCH_PARAMS_KEY)
  )
}

function keptLaunch(storage: LaunchSources['storage'], key: string): TelegramLaunch | undefined {
  try {
    const kept = storage?.getItem(key)
    const raw = kept ? (JSON.parse(kept) as unknown) : undefined
    return typeof raw === 'string' ? parseLaunchParams(raw) : undefined
  } catch {
    return undefined
  }
}

let detected: { launch: TelegramLaunch | undefined } | undefined

/** This page's launch, detected once (the hash is gone after the first navigation). */
export function telegramLaunch(): TelegramLaunch | undefined {
  detected ??= {
    launch: detectTelegramLaunch({
      hash: globalThis.location?.hash ?? '',
      storage: sessionStorageOrUndefined(),
      enabled: telegramEnabled,
      host: telegramHostPresent(globalThis),
    }),
  }
  return detected.launch
}

/** True when this page runs as a Telegram Mini App. */
export const isTelegram = () => telegramLaunch() !== undefined

interface HostGlobals {
  TelegramWebviewProxy?: unknown
  external?: unknown
  self?: unknown
  top?: unknown
  document?: unknown
}

/**
 * Whether a Telegram client is there to talk to — the same three transports
 * the SDK's `postEvent` uses (@telegram-apps/bridge): the mobile clients'
 * `window.TelegramWebviewProxy.postEvent`, the Windows Phone / old desktop
 * `window.external.notify`, or a parent frame (Telegram Web, and the SDK's
 * own check `window.self !== window.top`). Without one the SDK throws
 * UnknownEnvError on its first call. Only a window can be hosted.
 */
export function telegramHostPresent(scope: HostGlobals): boolean {
  if (scope.document === undefined) return false
  const proxy = scope.TelegramWebviewProxy as { postEvent?: unknown } | undefined
  if (typeof proxy?.postEvent === 'function') return true
  try {
    const external = scope.external as { notify?: unknown } | undefined
    if (typeof external?.notify === 'function') return true
  } catch {
    // Some engines throw on reading window.external: no host that way.
  }
  try {
    return scope.self !== scope.top
  } catch {
    // A cross-origin parent refuses even the comparison: that is a frame.
    return true
  }
}

function sessionStorageOrUndefined(): Storage | undefined {
  try {
    return globalThis.sessionStorage ?? undefined
  } catch {
    return undefined
  }
}
