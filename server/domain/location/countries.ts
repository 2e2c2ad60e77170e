import { countries, getEmojiFlag, type TCountryCode } from 'countries-list'
import { languageOfTag } from '../../../contract/languages.ts'
import type { Country } from '../../../contract/location.ts'
import { USER_LANGUAGES } from '../../../contract/user.ts'

/**
 * The countries we know, from the `countries-list` dataset: the country
 * picker (GET /location/countries) and the profile's address check both read
 * this one list, so a country the picker offers is always one the profile takes.
 * Names in other languages than English come from the CLDR data of Node's ICU
 * (Intl.DisplayNames), also maintained upstream.
 */

/** The languages countries are named in: the app's own (its catalogues), no other. */
export type CountryLanguage = (typeof USER_LANGUAGES)[number]

/**
 * Built on first use per language and kept: both datasets only change with an
 * upgrade, which restarts the process. At most one entry per USER_LANGUAGES.
 */
const lists = new Map<CountryLanguage, readonly Country[]>()
let codes: ReadonlySet<string> | undefined

/**
 * Sorted by name in `language` ("en" when not given); dialling codes as
 * digit strings ("1", "44").
 */
export function countryList(wanted: CountryLanguage = 'en'): readonly Country[] {
  // A caller's typo must not grow the cache: anything else is English.
  const language: CountryLanguage = USER_LANGUAGES.includes(wanted) ? wanted : 'en'
  let list = lists.get(language)
  if (list) return list
  const names =
    language === 'en' ? undefined : new Intl.DisplayNames([language], { type: 'region' })
  list = Object.freeze(
    (Object.entries(countries) as Array<[TCountryCode, (typeof countries)[TCountryCode]]>)
      .map(([code, country]) => ({
        code,
        // ICU answers the code itself for a region it cannot name: the English name is better.
        name: names && names.of(code) !== code ? (names.of(code) ?? country.name) : country.name,
        dial_codes: country.phone.map(String),
        flag: getEmojiFlag(code),
      }))
      .sort((a, b) => a.name.localeCompare(b.name, language)),
  )
  lists.set(language, list)
  return list
}

/**
 * The language to name countries in, from an Accept-Language header: the
 * first (by q) that is one of the app's (contract/languages.ts), so "ru-RU"
 * is "ru" and "pt-br" "pt-BR"; "en" when none. Only those few, so no header
 * can make the server build and keep another list.
 */
export function countryLanguage(acceptLanguage: string | undefined): CountryLanguage {
  const wanted = (acceptLanguage ?? '')
    .split(',')
    .map((part, index) => {
      const [tag = '', ...params] = part.trim().split(';')
      const q = params.map((param) => /^\s*q=([\d.]+)\s*$/.exec(param)?.[1]).find(Boolean)
      return { tag: tag.trim(), q: q === undefined ? 1 : Number(q), index }
    })
    .filter((entry) => entry.tag !== '' && entry.tag !== '*' && entry.q > 0)
    .sort((a, b) => b.q - a.q || a.index - b.index)
  for (const { tag } of wanted) {
    const known = languageOfTag(tag)
    if (known) return known
  }
  return 'en'
}

/** The languages a list has been built in so far (at most USER_LANGUAGES). */
export function cachedCountryLanguages(): string[] {
  return [...lists.keys()]
}

/** True for an ISO 3166-1 alpha-2 code of countryList(). */
export function isKnownCountry(code: string): boolean {
  codes ??= new Set(countryList().map((country) => country.code))
  return codes.has(code)
}
