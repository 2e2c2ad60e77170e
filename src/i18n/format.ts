import { formatLocale } from './digits.ts'
import { amountsHidden, HIDDEN_AMOUNT } from './hidden-amounts.ts'
import type { Language } from './i18n.tsx'
import { ltrIsland } from './money.ts'

/*
 * Intl formatting that is not a message. Formatters are cached per locale
 * (formatLocale: the language and its digits) and shape: a 10 000-row
 * history must not build 10 000 of them.
 */
const cache = new Map<string, Intl.NumberFormat | Intl.DateTimeFormat>()

function numberFormat(language: Language, decimals: number): Intl.NumberFormat {
  const locale = formatLocale(language)
  const key = `n:${locale}:${decimals}`
  let format = cache.get(key) as Intl.NumberFormat | undefined
  if (!format) {
    format = new Intl.NumberFormat(locale, {
      minimumFractionDigits: Math.min(2, decimals),
      maximumFractionDigits: decimals,
    })
    cache.set(key, format)
  }
  return format
}

/**
 * A money amount from its decimal string, every digit, with its code after it
 * ("1.50 ETH", "12.50 EUR"): what the screens built before issue 14 show.
 * New code uses `formatMoney` of ./money.ts — the app's one money formatter
 * (fiat in currency style, crypto trimmed to 8 significant fraction digits,
 * signs) — and screens move to it as they are redone.
 * Intl.NumberFormat formats a string without turning it into a float (ES2023),
 * so "0.000000000000000001" stays 1 wei. Never parseFloat an amount.
 * @deprecated use formatMoney (./money.ts)
 */
export function formatAmount(
  language: Language,
  amount: string,
  decimals: number,
  currency?: string,
): string {
  if (amountsHidden()) return HIDDEN_AMOUNT
  // More digits than the currency's decimals are shown too: an amount is never rounded.
  const scale = Math.min(100, Math.max(decimals, amount.split('.')[1]?.length ?? 0))
  const number = numberFormat(language, scale).format(amount as Intl.StringNumericLiteral)
  return ltrIsland(language, currency ? `${number}\u00a0${currency}` : number)
}

/** A point in time with date and time, in the reader's language and zone. */
export function formatDateTime(language: Language, iso: string): string {
  const locale = formatLocale(language)
  const key = `d:${locale}`
  let format = cache.get(key) as Intl.DateTimeFormat | undefined
  if (!format) {
    format = new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short' })
    cache.set(key, format)
  }
  return format.format(new Date(iso))
}

/** A byte count as people read it: "12 kB", "3.4 MB". */
export function formatBytes(language: Language, bytes: number): string {
  const [value, unit] =
    bytes >= 1_000_000
      ? [bytes / 1_000_000, 'megabyte']
      : bytes >= 1_000
        ? [bytes / 1_000, 'kilobyte']
        : [bytes, 'byte']
  return new Intl.NumberFormat(formatLocale(language), {
    style: 'unit',
    unit,
    unitDisplay: 'short',
    maximumFractionDigits: 1,
  }).format(value)
}
