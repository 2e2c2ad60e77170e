import { queryOptions, useQuery } from '@tanstack/react-query'
import { useMemo } from 'react'
import type { Country, CountryList } from '../../contract/location.ts'
import { useI18n } from '../i18n/i18n.tsx'
import { api } from '../net/api.ts'
import { serves, useTenantConfig } from '../queries/tenant.ts'

/**
 * The countries of GET /location/countries: reference data more than one
 * feature needs (the phone field, the address form), so it lives beside the
 * picker rather than in a feature. Keys come from this one factory.
 */
export const countryKeys = {
  all: ['countries'] as const,
}

export const countriesQuery = () =>
  queryOptions({
    queryKey: countryKeys.all,
    queryFn: ({ signal }) => api.v2.get<CountryList>('/location/countries', { signal }),
    // Countries and their calling codes change with a release of the server, not
    // during a visit: one fetch per page load is enough.
    staleTime: Number.POSITIVE_INFINITY,
    gcTime: Number.POSITIVE_INFINITY,
  })

export interface LocalCountry extends Country {
  /** The name in the person's language (Intl.DisplayNames), the English one as a fallback. */
  localName: string
}

/** The countries, named in the current language and sorted the way that language sorts. */
export function useCountries() {
  const { language } = useI18n()
  const query = useQuery(countriesQuery())
  const countries = useMemo(() => {
    if (!query.data) return undefined
    const names = new Intl.DisplayNames([language], { type: 'region', fallback: 'none' })
    const collator = new Intl.Collator(language)
    return query.data.data
      .map((country): LocalCountry => {
        let localName: string | undefined
        try {
          localName = names.of(country.code)
        } catch {
          // A code Intl does not know: keep the server's English name.
        }
        return { ...country, localName: localName ?? country.name }
      })
      .sort((a, b) => collator.compare(a.localName, b.localName))
  }, [query.data, language])
  return { countries, isPending: query.isPending, isError: query.isError }
}

/**
 * The countries the tenant takes customers from (see `serves`), in the same
 * order. `keep` stays listed although outside: a country the person saved
 * before the tenant narrowed its list is shown, not silently dropped.
 */
export function useServedCountries(keep?: string) {
  const { countries, ...rest } = useCountries()
  const config = useTenantConfig()
  const served = useMemo(
    () => countries?.filter((country) => country.code === keep || serves(config, country.code)),
    [countries, config, keep],
  )
  return { countries: served, ...rest }
}

/** The region of the browser's locale ("en-US" → "US", "ru" → "RU"), if it names one. */
export function browserRegion(
  locales: readonly string[] = globalThis.navigator?.languages ?? [],
): string | undefined {
  for (const tag of locales) {
    try {
      const region = new Intl.Locale(tag).maximize().region
      if (region && /^[A-Z]{2}$/.test(region)) return region
    } catch {
      // Not a valid tag: try the next one.
    }
  }
  return undefined
}

/** The country to start with: the browser's region when listed, else the first. */
export function defaultCountry(
  countries: readonly LocalCountry[],
  region = browserRegion(),
): LocalCountry | undefined {
  return countries.find((country) => country.code === region) ?? countries[0]
}
