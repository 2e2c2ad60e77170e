import { LANGUAGES, type Language } from '../../contract/languages.ts'

/**
 * What the build and the provider need to know of each language the product
 * speaks (contract/languages.ts) without loading its words
 * (src/i18n/catalogues.ts has those).
 */
export { LANGUAGES, type Language, languageOfTag } from '../../contract/languages.ts'

/**
 * A language in its own words ("Deutsch", "العربية"), as CLDR writes it
 * (Intl.DisplayNames): a person looking for theirs reads it in theirs.
 */
export function languageName(language: Language): string {
  try {
    const name = new Intl.DisplayNames([language], { type: 'language' }).of(language) ?? language
    return name.charAt(0).toLocaleUpperCase(language) + name.slice(1)
  } catch {
    return language
  }
}

export const isLanguage = (value: unknown): value is Language =>
  (LANGUAGES as readonly unknown[]).includes(value)

/** Written right to left: the document's `dir` follows (i18n.tsx). */
const RIGHT_TO_LEFT: readonly string[] = ['ar', 'fa']
export const directionOf = (language: Language): 'rtl' | 'ltr' =>
  RIGHT_TO_LEFT.includes(language) ? 'rtl' : 'ltr'
