import { parseLaunchParams, telegramLaunch } from './launch.ts'

/**
 * The language of the Telegram user who opened the Mini App, read from the
 * launch parameters (`tgWebAppData`): those in `hash` when given, else this
 * page's launch (the URL hash, or the one kept for reloads). Cheap and
 * synchronous, so the first screen already speaks it; the SDK itself loads
 * lazily and only inside Telegram.
 */
export function telegramLaunchLanguage(hash?: string): string | undefined {
  return (hash === undefined ? telegramLaunch() : parseLaunchParams(hash))?.languageCode
}
