/**
 * The languages the product speaks (issue 34): the app's catalogues, the
 * profile's `language`, and what the server words messages in. English is
 * every language's fallback. No imports: the app, the server and the
 * service worker share it.
 */
export const LANGUAGES = ['en', 'ru', 'uk', 'de', 'es', 'pt-BR', 'tr', 'id', 'fa', 'ar'] as const
export type Language = (typeof LANGUAGES)[number]

/**
 * The language of an IETF tag ("pt-br", "ru-RU", "fa"), if we speak it: the
 * whole tag first, then its primary subtag, which for Portuguese is Brazil's.
 */
export function languageOfTag(tag: string | undefined | null): Language | undefined {
  if (!tag) return undefined
  const lower = tag.trim().toLowerCase()
  const whole = LANGUAGES.find((language) => language.toLowerCase() === lower)
  if (whole) return whole
  const primary = lower.split(/[-_]/)[0]
  if (primary === 'pt') return 'pt-BR'
  return LANGUAGES.find((language) => language === primary)
}
