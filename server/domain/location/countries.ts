import { countries, getEmojiFlag, type TCountryCode } from 'countries-list'
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

/** The languages a list has been built in so far (at most USER_LANGUAGES). */
export function cachedCountryLanguages(): string[] {
  return [...lists.keys()]
}

/** True for an ISO 3166-1 alpha-2 code of countryList(). */
export function isKnownCountry(code: string): boolean {
  codes ??= new Set(countryList().map((country) => country.code))
  return codes.has(code)
}
