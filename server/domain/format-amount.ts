import type { Language } from '../../contract/languages.ts'

// Amounts, as the app shows them (src/i18n/money.ts), from the decimal string.

const MINUS = '\u2212'
const ISO_CURRENCIES: ReadonlySet<string> = new Set(Intl.supportedValuesOf('currency'))
const DECIMAL = /^(\d+)(?:\.(\d*))?$/
/** A crypto amount keeps at most this many significant fraction digits, as on screen. */
const FRACTION_DIGITS = 8

/**
 * "€1,234.50", "1 234,50 €", "0.00101885 BTC", with "+" for money in and "−"
 * for money out. Fiat through Intl's currency style (a decimal string: no
 * float on the way), crypto its digits trimmed; empty when there is no amount.
 */
export function formatAmount(
  language: Language,
  amount: string,
  currency: string,
  sign?: 'in' | 'out',
): string {
  const match = DECIMAL.exec(amount.trim())
  if (!match || !currency) return ''
  const whole = match[1]!.replace(/^0+(?=\d)/, '')
  const fraction = (match[2] ?? '').replace(/0+$/, '')
  const zero = /^0*$/.test(whole + fraction)
  const signed = zero ? '' : sign === 'in' ? '+' : sign === 'out' ? MINUS : ''
  if (ISO_CURRENCIES.has(currency.toUpperCase())) {
    const format = new Intl.NumberFormat(language, {
      style: 'currency',
      currency: currency.toUpperCase(),
    })
    return `${signed}${format.format(`${whole}.${fraction || '0'}` as Intl.StringNumericLiteral)}`
  }
  const leading = whole === '0' ? fraction.length - fraction.replace(/^0+/, '').length : 0
  const shown = fraction.slice(0, leading + FRACTION_DIGITS).replace(/0+$/, '')
  return `${signed}${localDigits(language, whole, shown)}\u00a0${currency}`
}

/**
 * "1,234.5", "1 234,5", "۱٬۲۳۴٫۵": a decimal's whole and fraction digits
 * grouped and written as the language writes numbers, its own digits and
 * point included. The fraction is shown as given, one digit at a time: no
 * float, no rounding.
 */
export function localDigits(language: Language, whole: string, fraction: string): string {
  const integer = new Intl.NumberFormat(language)
  const point = integer.formatToParts(1.5).find((part) => part.type === 'decimal')?.value ?? '.'
  const localFraction = fraction.replace(/\d/g, (digit) => integer.format(Number(digit)))
  return `${integer.format(BigInt(whole))}${localFraction ? `${point}${localFraction}` : ''}`
}
