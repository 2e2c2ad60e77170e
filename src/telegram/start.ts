import { applyThemeParams, keepLaunchForSdk, postToTelegram } from './bridge.ts'
import { applyColorScheme, colorSchemeOf, osPrefersDark } from './color-scheme.ts'
import type { telegramLaunch } from './launch.ts'
import type { MiniAppControls } from './sdk.ts'

type Launch = NonNullable<ReturnType<typeof telegramLaunch>>

/**
 * The Mini App's start (loadMiniApp in ./mini-app.tsx, only inside Telegram):
 * the chat's theme on <html> from the launch parameters at once, so the first
 * render (and an app whose SDK fails) wears the chat's colours, then the SDK
 * (`sdk`, already on its way) started.
 */
export async function startMiniApp(
  launch: Launch,
  sdk: Promise<typeof import('./sdk.ts')>,
): Promise<MiniAppControls | undefined> {
  const root = document.documentElement
  root.dataset.appEnv = 'telegram'
  applyThemeParams(root, launch.themeParams)
  applyColorScheme(root, colorSchemeOf(launch.themeParams.bg_color, osPrefersDark()))
  keepLaunchForSdk(window, launch)
  try {
    const { startMiniApp } = await sdk
    return startMiniApp(launch)
  } catch (error) {
    // The app still works as a web page inside Telegram, without its buttons;
    // Telegram hears that it is ready, or it would keep its loading screen up.
    console.error('[telegram] the Mini App SDK failed to start', error)
    postToTelegram(window as never, 'web_app_ready')
    postToTelegram(window as never, 'web_app_expand')
    return undefined
  }
}
