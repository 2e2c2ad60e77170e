import { countries, getEmojiFlag, type TCountryCode } from 'countries-list'
import type { Country } from '../../../contract/location.ts'

/**
 * The countries we know, from the `countries-list` dataset: the country
 * picker (GET /location/countries) and the profile's address check both read
 * this one list, so a country the picker offers is always one the profile takes.
 */

let list: readonly Country[] | undefined
let codes: ReadonlySet<string> | undefined

/**
 * Sorted by English name; dialling codes as digit strings ("1", "44").
 * Built on first use and kept: the dataset ships with the package and only
 * changes with an upgrade, which restarts the process.
 */
export function countryList(): readonly Country[] {
  list ??= Object.freeze(
    (Object.entries(countries) as Array<[TCountryCode, (typeof countries)[TCountryCode]]>)
      .map(([code, country]) => ({
        code,
        name: country.name,
        dial_codes: country.phone.map(String),
        flag: getEmojiFlag(code),
      }))
      .sort((a, b) => a.name.localeCompare(b.name, 'en')),
  )
  return list
}

/** True for an ISO 3166-1 alpha-2 code of countryList(). */
export function isKnownCountry(code: string): boolean {
  codes ??= new Set(countryList().map((country) => country.code))
  return codes.has(code)
}
