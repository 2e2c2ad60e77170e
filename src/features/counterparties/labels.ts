import type {
  BankAccountType,
  CounterpartyType,
  DestinationType,
} from '../../../contract/counterparties.ts'
import type { MessageKey } from '../../i18n/en.ts'
import type { Language, Translate } from '../../i18n/i18n.tsx'
import type { DestinationField } from './destination-form.ts'

/*
 * The docs/product.md §3 enumerations as this screen lists them. The contract's arrays
 * are TypeBox values the app must not ship (import type only): each list is a
 * Record over the contract's type, so a value added there is a type error here
 * until it is listed and labelled in en and ru.
 */
const keysOf = <K extends string>(record: Record<K, true>) => Object.keys(record) as K[]

export const COUNTERPARTY_TYPES = keysOf<CounterpartyType>({ INDIVIDUAL: true, BUSINESS: true })

/** In the order the picker offers them: the common European rails first. */
export const DESTINATION_TYPES = keysOf<DestinationType>({
  SEPA: true,
  SWIFT: true,
  ACH: true,
  DOMESTIC_WIRE: true,
  CRYPTO_EXTERNAL: true,
  CRYPTO_INTERNAL: true,
})

export const BANK_ACCOUNT_TYPES = keysOf<BankAccountType>({ checking: true, savings: true })

export const counterpartyTypeLabel = (t: Translate, type: CounterpartyType) => t(`cp.type.${type}`)
export const railLabel = (t: Translate, type: DestinationType) => t(`cp.rail.${type}`)
export const accountTypeLabel = (t: Translate, type: BankAccountType) => t(`cp.accountType.${type}`)

const DESTINATION_FIELD_NAMES: Record<DestinationField, MessageKey> = {
  iban: 'cp.dest.iban',
  bic: 'cp.dest.bic',
  account_number: 'cp.dest.accountNumber',
  routing_number: 'cp.dest.routingNumber',
  account_type: 'cp.dest.accountType',
  bank_name: 'cp.dest.bankName',
  bank_country: 'cp.dest.bankCountry',
  chain: 'cp.dest.chain',
  address: 'cp.dest.address',
  wallet_uuid: 'cp.dest.walletUuid',
  label: 'cp.dest.label',
}

export const destinationFieldName = (t: Translate, field: DestinationField) =>
  t(DESTINATION_FIELD_NAMES[field])

const regionNames = new Map<Language, Intl.DisplayNames>()

/** A country by its ISO code, named in the reader's language; the code when Intl does not know it. */
export function countryName(language: Language, code: string): string {
  let names = regionNames.get(language)
  if (!names) {
    names = new Intl.DisplayNames([language], { type: 'region', fallback: 'code' })
    regionNames.set(language, names)
  }
  try {
    return names.of(code) ?? code
  } catch {
    return code
  }
}

/** "1 destination", "3 destinations": the catalogue's plural. */
export const destinationsCount = (t: Translate, count: number): string =>
  t('cp.destinationsCount', { count })

/** Up to two initials for the avatar: "Ada Lovelace" → "AL", "Acme GmbH" → "AG". */
export const initials = (name: string) =>
  name
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((word) => word[0]?.toUpperCase())
    .join('')
