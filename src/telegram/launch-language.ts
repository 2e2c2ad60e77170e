/**
 * The language of the Telegram user who opened the Mini App, read from the
 * launch parameters Telegram puts in the URL hash (`tgWebAppData`). Cheap and
 * synchronous, so the first screen already speaks it; the SDK itself loads
 * lazily and only inside Telegram.
 */
export function telegramLaunchLanguage(hash = globalThis.location?.hash ?? ''): string | undefined {
  try {
    const data = new URLSearchParams(hash.replace(/^#/, '')).get('tgWebAppData')
    const user = data ? new URLSearchParams(data).get('user') : null
    const code = user ? (JSON.parse(user) as { language_code?: unknown }).language_code : undefined
    return typeof code === 'string' ? code : undefined
  } catch {
    return undefined
  }
}
