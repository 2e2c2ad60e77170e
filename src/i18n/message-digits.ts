import { formatLocale } from './digits.ts'

/** One formatter per locale ("fa", "fa-u-nu-latn"): a screen of sentences must not build one a figure. */
const formats = new Map<string, Intl.NumberFormat>()

/**
 * A figure a message was given as a number ("{seconds}", "{max}") in the
 * reader's digits, as its amounts and dates are: "تا ۶۰ ثانیه", or "60" with
 * Latin digits chosen. Anything else (a name, an amount already formatted)
 * as it came. The build routes every plain argument of a language with digits
 * of its own through it (scripts/compile-messages.ts), so only that
 * language's catalogue chunk carries it.
 */
export function messageDigits(value: unknown, language: string): unknown {
  if (typeof value !== 'number') return value
  const locale = formatLocale(language)
  let format = formats.get(locale)
  if (!format) {
    format = new Intl.NumberFormat(locale, { useGrouping: false })
    formats.set(locale, format)
  }
  return format.format(value)
}
