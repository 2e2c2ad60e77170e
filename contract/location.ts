import { type Static, Type } from '@sinclair/typebox'
import { Page } from './pagination.ts'

export const Country = Type.Object({
  /** ISO 3166-1 alpha-2. The app names it in the person's language with Intl.DisplayNames. */
  code: Type.String({ pattern: '^[A-Z]{2}$' }),
  /** Name in the request's language (Accept-Language) among the app's (en, ru); English otherwise. */
  name: Type.String(),
  /** Calling codes without "+", most countries have one ("1", "7", "44"). */
  dial_codes: Type.Array(Type.String({ pattern: '^[0-9]+$' })),
  flag: Type.String({ description: 'Emoji flag' }),
})
export type Country = Static<typeof Country>

/** `GET /location/countries`: the whole list, one page. */
export const CountryList = Page(Country)
export type CountryList = Static<typeof CountryList>
