import { formatLocale } from './digits.ts'

/**
 * A figure a message was given as a number ("{seconds}", "{max}") in the
 * reader's digits, as its amounts and dates are: "تا ۶۰ ثانیه", or "60" with
 * Latin digits chosen. Anything else (a name, an amount already formatted)
 * as it came. The build routes every plain argument of a language with digits
 * of its own through it (scripts/compile-messages.ts), so only that
 * language's catalogue chunk carries it.
 */
export const messageDigits = (value: unknown, locale: string): unknown =>
  typeof value === 'number'
    ? new Intl.NumberFormat(formatLocale(locale), { useGrouping: false }).format(value)
    : value
