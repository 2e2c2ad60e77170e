import { parsePhoneNumberFromString } from 'libphonenumber-js/max'
import { RATE_BASES } from '../../../contract/rates.ts'
import { PRODUCTS, type Products, type TenantSettings } from '../../../contract/tenants.ts'
import { WALLET_TYPES } from '../../../contract/wallets.ts'
import { countryList, isKnownCountry } from '../location/countries.ts'

/** One wrong setting: `field` is a JSON pointer into TenantSettings ("/products/cards"). */
export interface Fault {
  field: string
  message: string
}

export type Resolved = { settings: TenantSettings; faults?: undefined } | { faults: Fault[] }

/**
 * What a tenant gets for anything not set: the defaults of migration 0012
 * (keep both in step), the name aside — a tenant always gets one.
 */
export const DEFAULT_SETTINGS: Omit<TenantSettings, 'name'> = {
  primary_color: '#3b5bfd',
  accent_color: '#16794a',
  logo_url: null,
  products: { crypto: true, fiat: true, cards: true, exchange: true, p2p: true },
  wallet_types: [
    'personal',
    'business',
    'trading',
    'escrow',
    'merchant',
    'exchange',
    'staking',
    'vault',
  ],
  default_display_currency: 'USD',
  supported_countries: null,
  support_email: 'support@finplatform.local',
  support_phone: null,
  support_url: null,
  logout_url: null,
}

const SETTING_NAMES = [
  'name',
  ...(Object.keys(DEFAULT_SETTINGS) as Array<keyof typeof DEFAULT_SETTINGS>),
] as const satisfies ReadonlyArray<keyof TenantSettings>

const COLOR = /^#[0-9a-f]{6}$/i
// Deliberately loose: one @, no spaces, a dot in the domain. Mail servers decide the rest.
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/

/**
 * The one check of a tenant's settings, for the admin CLI and the seed file
 * alike: `changes` (parsed JSON or CLI flags, anything) applied over `base`,
 * then every field validated. Answers the whole new settings, normalised
 * (colours lower-case, phone in E.164, countries sorted), or every fault at once.
 */
export function resolveSettings(
  base: Partial<TenantSettings>,
  changes: Record<string, unknown>,
): Resolved {
  const faults: Fault[] = []
  const fault = (field: string, message: string) => faults.push({ field, message })

  for (const key of Object.keys(changes)) {
    if (!(SETTING_NAMES as readonly string[]).includes(key)) fault(`/${key}`, 'Unknown setting.')
  }
  const value = (key: keyof TenantSettings): unknown =>
    Object.hasOwn(changes, key) ? changes[key] : base[key]

  const name = value('name')
  if (typeof name !== 'string' || name.trim() === '' || name.trim().length > 100) {
    fault('/name', 'A name of 1 to 100 characters is required.')
  }

  const color = (key: 'primary_color' | 'accent_color') => {
    const raw = value(key)
    if (typeof raw === 'string' && COLOR.test(raw)) return raw.toLowerCase()
    fault(`/${key}`, `Must be a colour written #rrggbb, got ${JSON.stringify(raw)}.`)
    return ''
  }

  const link = (key: 'logo_url' | 'support_url' | 'logout_url') => {
    const raw = value(key)
    if (raw === null || raw === undefined) return null
    if (typeof raw === 'string' && isLink(raw)) return raw
    fault(
      `/${key}`,
      `Must be an https:// address or a path on the app's origin ("/…"), got ${JSON.stringify(raw)}.`,
    )
    return null
  }

  // The logo is an image of the app's own origin: the CSP (img-src 'self')
  // blocks other hosts, so an https logo elsewhere would never show.
  const logo = () => {
    const raw = value('logo_url')
    if (raw === null || raw === undefined) return null
    if (typeof raw === 'string' && isAppPath(raw)) return raw
    fault(
      '/logo_url',
      `Must be a path on the app's origin ("/…", e.g. /branding/logo.svg), got ${JSON.stringify(raw)}.`,
    )
    return null
  }

  const primaryColor = color('primary_color')
  const accentColor = color('accent_color')
  const logoUrl = logo()
  const products = resolveProducts(base.products, changes.products, fault)

  const walletTypes = value('wallet_types')
  if (!Array.isArray(walletTypes) || walletTypes.length === 0) {
    fault('/wallet_types', `A list of one or more of: ${WALLET_TYPES.join(', ')}.`)
  } else {
    walletTypes.forEach((type, index) => {
      if (!(WALLET_TYPES as readonly unknown[]).includes(type)) {
        fault(`/wallet_types/${index}`, `Not a wallet type: ${JSON.stringify(type)}.`)
      } else if (walletTypes.indexOf(type) !== index) {
        fault(`/wallet_types/${index}`, `${type} is listed twice.`)
      }
    })
  }

  const currency = value('default_display_currency')
  if (!(RATE_BASES as readonly unknown[]).includes(currency)) {
    fault(
      '/default_display_currency',
      `Must be a currency totals can be shown in: ${RATE_BASES.join(', ')}; got ${JSON.stringify(currency)}.`,
    )
  }

  let countries = value('supported_countries')
  if (countries !== null && countries !== undefined) {
    if (!Array.isArray(countries) || countries.length === 0) {
      fault(
        '/supported_countries',
        'A list of ISO 3166-1 alpha-2 codes, or null for every country.',
      )
    } else {
      countries.forEach((code, index) => {
        if (typeof code !== 'string' || !isKnownCountry(code)) {
          fault(
            `/supported_countries/${index}`,
            `Not a known ISO 3166-1 alpha-2 country code (upper case): ${JSON.stringify(code)}.`,
          )
        }
      })
      countries = [...new Set(countries as string[])].sort()
    }
  }

  const email = value('support_email')
  if (typeof email !== 'string' || email.length > 254 || !EMAIL.test(email)) {
    fault('/support_email', `Must be an e-mail address, got ${JSON.stringify(email)}.`)
  }

  let phone = value('support_phone') ?? null
  if (phone !== null) {
    const parsed = typeof phone === 'string' ? parsePhoneNumberFromString(phone) : undefined
    if (parsed?.isValid()) {
      phone = parsed.number
    } else {
      fault(
        '/support_phone',
        `Must be a phone number with its country code ("+44 20 7946 0958"), got ${JSON.stringify(phone)}.`,
      )
    }
  }

  const supportUrl = link('support_url')
  const logoutUrl = link('logout_url')

  const settings: TenantSettings = {
    name: typeof name === 'string' ? name.trim() : '',
    primary_color: primaryColor,
    accent_color: accentColor,
    logo_url: logoUrl,
    products,
    wallet_types: walletTypes as string[],
    default_display_currency: currency as string,
    supported_countries: (countries ?? null) as string[] | null,
    support_email: email as string,
    support_phone: phone as string | null,
    support_url: supportUrl,
    logout_url: logoutUrl,
  }
  return faults.length > 0 ? { faults } : { settings }
}

/** Products merge one by one: `{cards: false}` switches cards off and leaves the rest. */
function resolveProducts(
  base: Products | undefined,
  changes: unknown,
  fault: (field: string, message: string) => void,
): Products {
  const products: Products = { ...DEFAULT_SETTINGS.products, ...base }
  if (changes === undefined) return products
  if (typeof changes !== 'object' || changes === null || Array.isArray(changes)) {
    fault('/products', `An object of booleans: ${PRODUCTS.join(', ')}.`)
    return products
  }
  for (const [key, on] of Object.entries(changes)) {
    if (!(PRODUCTS as readonly string[]).includes(key)) {
      fault(`/products/${key}`, `Not a product; the products are ${PRODUCTS.join(', ')}.`)
    } else if (typeof on !== 'boolean') {
      fault(`/products/${key}`, `Must be true or false, got ${JSON.stringify(on)}.`)
    } else {
      products[key as keyof Products] = on
    }
  }
  return products
}

/**
 * Products as stored (jsonb keeps no key order) in PRODUCTS order, each one
 * named: a product added after the row was written takes its default.
 */
export function productsFrom(stored: Record<string, unknown>): Products {
  return Object.fromEntries(
    PRODUCTS.map((product) => [
      product,
      typeof stored[product] === 'boolean' ? stored[product] : DEFAULT_SETTINGS.products[product],
    ]),
  ) as Products
}

/**
 * https on any host, or a path on the app's own origin. "//host" is another
 * origin in disguise and javascript:/data: never belong in a logo or a redirect.
 */
export function isLink(value: string): boolean {
  if (value.startsWith('/')) return isAppPath(value)
  if (value.length === 0 || value.length > 2048 || /\s/.test(value)) return false
  try {
    const url = new URL(value)
    return (
      url.protocol === 'https:' && url.hostname !== '' && url.username === '' && url.password === ''
    )
  } catch {
    return false
  }
}

/** A path on the app's own origin ("/…"); "//host" and "/\\host" are other origins. */
export function isAppPath(value: string): boolean {
  if (value.length === 0 || value.length > 2048 || /\s/.test(value)) return false
  return value.startsWith('/') && !value.startsWith('//') && !value.startsWith('/\\')
}

/** The countries a tenant takes: its list, or every country GET /location/countries knows. */
export function supportedCountries(
  settings: Pick<TenantSettings, 'supported_countries'>,
): string[] {
  return (
    settings.supported_countries ??
    countryList()
      .map((country) => country.code)
      .sort()
  )
}

/**
 * Whether a tenant whose stored list is `supported` takes `country`: no list,
 * or an empty one, takes every country (the app's `serves` reads it the same way).
 */
export function serves(supported: readonly string[] | null, country: string): boolean {
  return !supported?.length || supported.includes(country)
}
