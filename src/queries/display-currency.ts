import { useSyncExternalStore } from 'react'
import type { RateBase } from '../../contract/rates.ts'
import { useTenantConfig } from './tenant.ts'

/** What totals can be shown in: the bases the server quotes rates in. */
export const DISPLAY_CURRENCIES = ['USD', 'EUR', 'GBP'] as const satisfies readonly RateBase[]
export type DisplayCurrency = (typeof DISPLAY_CURRENCIES)[number]

const STORAGE_KEY = 'displayCurrency'

/** The euro area (Bulgaria from 2026) and the states that use the euro by agreement. */
const EURO_REGIONS = new Set(
  'AT BE BG CY DE EE ES FI FR GR HR IE IT LT LU LV MT NL PT SI SK AD MC SM VA ME XK'.split(' '),
)

const isDisplayCurrency = (value: unknown): value is DisplayCurrency =>
  (DISPLAY_CURRENCIES as readonly unknown[]).includes(value)

/**
 * From the first locale the browser reports, by its region ("de" is taken as
 * de-DE): EUR in the euro area, GBP in the United Kingdom, USD elsewhere.
 */
export function currencyForLocales(locales: readonly string[]): DisplayCurrency {
  const tag = locales[0]
  if (!tag) return 'USD'
  let region: string | undefined
  try {
    region = new Intl.Locale(tag).maximize().region
  } catch {
    return 'USD'
  }
  if (region === 'GB') return 'GBP'
  return region && EURO_REGIONS.has(region) ? 'EUR' : 'USD'
}

/** The choice made on this device earlier, if any. */
function storedCurrency(): DisplayCurrency | undefined {
  try {
    const stored = localStorage.getItem(STORAGE_KEY)
    if (isDisplayCurrency(stored)) return stored
  } catch {
    // Storage refused (private mode): nothing was kept.
  }
  return undefined
}

/*
 * The choice is one value for the whole app: the total's picker changes it,
 * and every amount's value beneath it (useDisplayValue, ./display-value.ts) follows at once.
 */
/** Private mode refuses storage: the choice then lasts for this visit, here. */
let unstored: DisplayCurrency | undefined
const listeners = new Set<() => void>()
const subscribe = (listener: () => void) => {
  listeners.add(listener)
  return () => listeners.delete(listener)
}
// A code is a string: the same choice read twice is the same snapshot.
const snapshot = () => storedCurrency() ?? unstored

function choose(next: DisplayCurrency) {
  try {
    localStorage.setItem(STORAGE_KEY, next)
  } catch {
    unstored = next
  }
  for (const listener of listeners) listener()
}

const fallbackCurrency = (tenantDefault: string | undefined): DisplayCurrency =>
  isDisplayCurrency(tenantDefault)
    ? tenantDefault
    : currencyForLocales(globalThis.navigator?.languages ?? [])

/**
 * The person's display currency, kept on this device (it is a preference, not
 * account data): their own choice, else the tenant's default display
 * currency, else a guess from the browser's locale (before the tenant's
 * configuration is known).
 */
export function useDisplayCurrency(): [DisplayCurrency, (currency: DisplayCurrency) => void] {
  const tenantDefault = useTenantConfig()?.default_display_currency
  const own = useSyncExternalStore(subscribe, snapshot, () => undefined)
  return [own ?? fallbackCurrency(tenantDefault), choose]
}
