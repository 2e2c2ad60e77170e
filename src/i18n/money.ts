import { compare, type Decimal, parseDecimal } from '../ui/decimal.ts'
import { formatLocale } from './digits.ts'
import { amountsHidden, HIDDEN_AMOUNT } from './hidden-amounts.ts'
import type { Language } from './i18n.tsx'
import { directionOf } from './languages.ts'

/*
 * The app's one money formatter (docs/experience.md, "Money on screen"). Every
 * amount and rate on screen goes through here, from the API's decimal string
 * to the text — never through a float:
 *
 * - fiat: Intl.NumberFormat currency style in the app's language ("€1,234.50",
 *   "1 234,50 €");
 * - crypto: the digits the amount has, trailing zeros trimmed, at most 8
 *   significant fraction digits ("0.00101885 BTC", "1.12345678 ETH"), cut
 *   towards zero so a balance is never shown larger than it is; the exact value
 *   is `exactAmount` (for copy) or `{ exact: true }` (for a tap);
 * - a sign when the amount has a direction: "+" for money in, "−" (U+2212) for
 *   money out; a negative amount reads "−" without one;
 * - rates: "1 BTC = 98,150.12 USDT", the currency worth more on the left, at
 *   most 8 significant digits;
 * - while the person has hidden amounts (hidden-amounts.ts), every amount
 *   reads "•••" — a rate does not: it is no one's money;
 * - in a language written right to left (ar, fa), every amount, rate and
 *   figure is one left-to-right island (LRI … PDI, as `<bdi dir="ltr">` is):
 *   its sign, digits and code keep their order and never trade places with
 *   the words around it — in a sentence of a catalogue too, where no element
 *   can reach (docs/decisions.md, issue 34 part 3).
 *
 * Formatters are cached per locale (formatLocale: the language and its
 * digits, Latin by the person's choice) and shape: a 10 000-row list must not
 * build 10 000 of them.
 */

/** An amount as the API sends it: the decimal string and its currency (MoneySide, Balance…). */
export interface Money {
  amount: string
  /** The code: EUR, BTC, USDT. */
  currency: string
  /**
   * The currency's chain: null for fiat (the catalogue's rule), a chain id for
   * crypto. Left out, a code Intl knows as ISO 4217 counts as fiat.
   */
  chain?: string | null
}

/** Which way the money went for the person; undefined: no sign (a balance, a price). */
export type MoneySign = 'in' | 'out'

export interface MoneyOptions {
  sign?: MoneySign
  /** Every digit the amount has (a tap on a shortened amount), crypto and fiat alike. */
  exact?: boolean
  /** Shown even while amounts are hidden: what the person is typing or confirming right now. */
  shown?: boolean
}

/** At most this many significant fraction digits of a crypto amount on screen. */
export const CRYPTO_FRACTION_DIGITS = 8
/** At most this many significant digits in a rate. */
export const RATE_DIGITS = 8

/**
 * `text` as one left-to-right island in a language written right to left
 * (LRI … PDI, as `<bdi dir="ltr">` is): an amount's sign, digits and code
 * keep their order and never trade places with the words around it, in a
 * catalogue's sentence too. Unchanged in a left-to-right language.
 */
export const ltrIsland = (language: Language, text: string): string =>
  directionOf(language) === 'rtl' ? `\u2066${text}\u2069` : text

const MINUS = '\u2212'
const NBSP = '\u00a0'

const cache = new Map<string, Intl.NumberFormat>()
function numberFormat(key: string, make: () => Intl.NumberFormat): Intl.NumberFormat {
  let format = cache.get(key)
  if (!format) {
    format = make()
    cache.set(key, format)
  }
  return format
}

const ISO_CURRENCIES: ReadonlySet<string> = new Set(
  typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('currency') : [],
)

/** Whether `money` is fiat: its chain says so when known (null), else its code is ISO 4217. */
export function isFiat(money: Pick<Money, 'currency' | 'chain'>): boolean {
  if (money.chain !== undefined) return money.chain === null
  return ISO_CURRENCIES.has(money.currency.toUpperCase())
}

/** A decimal string split into its parts, with trailing fraction zeros trimmed. */
interface Parts {
  negative: boolean
  whole: string
  fraction: string
}

const DECIMAL = /^([-+])?(\d+)(?:\.(\d*))?$/

function split(amount: string): Parts {
  const match = DECIMAL.exec(amount.trim())
  if (!match) throw new RangeError(`"${amount}" is not a decimal amount`)
  const whole = match[2]!.replace(/^0+(?=\d)/, '')
  const fraction = (match[3] ?? '').replace(/0+$/, '')
  const zero = /^0*$/.test(whole + fraction)
  return { negative: match[1] === '-' && !zero, whole, fraction }
}

const isZero = (parts: Parts) => parts.whole === '0' && parts.fraction === ''

/**
 * A crypto amount's fraction for the screen: at most 8 significant fraction
 * digits — counted from the first non-zero one when the amount is below 1, so
 * a tiny amount never reads 0 — cut towards zero and trimmed again.
 */
function shortFraction(parts: Parts): string {
  if (parts.whole !== '0') return parts.fraction.slice(0, CRYPTO_FRACTION_DIGITS).replace(/0+$/, '')
  const leading = parts.fraction.length - parts.fraction.replace(/^0+/, '').length
  return parts.fraction.slice(0, leading + CRYPTO_FRACTION_DIGITS).replace(/0+$/, '')
}

/**
 * Grouped whole digits and the fraction, in the language's separators. The
 * whole part is formatted as a bigint and the fraction appended as it is, so
 * no digit limit of Intl (20 fraction digits on Node 20) and no rounding apply.
 */
function digits(language: Language, whole: string, fraction: string): string {
  const locale = formatLocale(language)
  const integer = numberFormat(`i:${locale}`, () => new Intl.NumberFormat(locale))
  const grouped = integer.format(BigInt(whole))
  if (!fraction) return grouped
  const separator = integer.formatToParts(1.5).find((part) => part.type === 'decimal')?.value
  // The fraction in the language's digits too ("۰٫۰۱۲۳" in Persian): its zero tells which.
  const zero = integer.format(0).charCodeAt(0)
  const local = fraction.replace(/\d/g, (digit) => String.fromCharCode(zero + Number(digit)))
  return `${grouped}${separator ?? '.'}${local}`
}

function signOf(parts: Parts, options: MoneyOptions): string {
  if (isZero(parts)) return ''
  if (options.sign === 'in') return '+'
  if (options.sign === 'out' || parts.negative) return MINUS
  return ''
}

/**
 * An amount as people read it (see the top of this file). `sign` puts "+" or
 * "−" in front; `exact` shows every digit the amount has.
 * @throws RangeError for a string that is not a decimal amount
 */
export function formatMoney(language: Language, money: Money, options: MoneyOptions = {}): string {
  const parts = split(money.amount)
  if (!options.shown && amountsHidden()) return HIDDEN_AMOUNT
  const sign = signOf(parts, options)
  if (isFiat(money)) {
    const absolute = `${parts.whole}.${parts.fraction || '0'}` as Intl.StringNumericLiteral
    const currency = money.currency.toUpperCase()
    const locale = formatLocale(language)
    const usual = numberFormat(
      `c:${locale}:${currency}`,
      () => new Intl.NumberFormat(locale, { style: 'currency', currency }),
    )
    // Exactly: every digit the amount has, never fewer than the currency shows.
    const minor = usual.resolvedOptions().maximumFractionDigits ?? 2
    const places = Math.min(20, Math.max(minor, parts.fraction.length))
    const format =
      options.exact && places > minor
        ? numberFormat(
            `x:${locale}:${currency}:${places}`,
            () =>
              new Intl.NumberFormat(locale, {
                style: 'currency',
                currency,
                maximumFractionDigits: places,
              }),
          )
        : usual
    return ltrIsland(language, `${sign}${format.format(absolute)}`)
  }
  const fraction = options.exact ? parts.fraction : shortFraction(parts)
  return ltrIsland(
    language,
    `${sign}${digits(language, parts.whole, fraction)}${NBSP}${money.currency}`,
  )
}

/**
 * Whether the screen shows less than the amount has (a crypto amount cut to 8
 * significant fraction digits): then offer the exact value on tap or copy.
 */
export function isShortened(money: Money): boolean {
  if (isFiat(money)) return false
  const parts = split(money.amount)
  return shortFraction(parts) !== parts.fraction
}

/**
 * The exact amount for the clipboard or a screen reader's detail: every
 * significant digit, "." as the separator, no grouping, no code ("0.00101885",
 * "-12.5"): what another app reads back as the same number.
 */
export function exactAmount(money: Pick<Money, 'amount'>): string {
  const parts = split(money.amount)
  const number = parts.fraction ? `${parts.whole}.${parts.fraction}` : parts.whole
  return parts.negative ? `-${number}` : number
}

// ---------------------------------------------------------------------------
// Rates

/** The two sides of a rate: `rate` is units of `to` for one unit of `from` (as the API quotes it). */
export interface Rate {
  from: string
  to: string
  rate: string
}

/** `value` rounded half-up to `significant` significant digits, as a plain decimal string. */
function toSignificant(value: Decimal, significant: number): string {
  const digitsOf = value.units.toString()
  const drop = Math.max(0, digitsOf.length - significant)
  let units = value.units
  if (drop > 0) {
    const divisor = 10n ** BigInt(drop)
    units = (units + divisor / 2n) / divisor
    units *= divisor
  }
  const text = units.toString().padStart(value.scale + 1, '0')
  const whole = text.slice(0, text.length - value.scale)
  const fraction = text.slice(text.length - value.scale).replace(/0+$/, '')
  return fraction ? `${whole}.${fraction}` : whole
}

/**
 * 1 / value for a value below 1 (so the result is above 1): `significant`
 * fraction digits and two more, enough to round to `significant` significant
 * digits. 1 / (u / 10^s) = 10^s / u, scaled by 10^k for k places.
 */
function reciprocal(value: Decimal, significant: number): Decimal {
  const scale = significant + 2
  return { units: 10n ** BigInt(value.scale + scale) / value.units, scale }
}

/**
 * "1 BTC = 98,150.12 USDT": the currency worth more on the left (so the
 * figure is 1 or more), at most 8 significant digits, in the language's
 * separators. An exactly even rate keeps `from` on the left.
 * @throws RangeError for a rate that is not a positive decimal
 */
export function formatRate(language: Language, { from, to, rate }: Rate): string {
  const value = parseDecimal(rate)
  if (value.units <= 0n) throw new RangeError(`"${rate}" is not a positive rate`)
  const fromIsStronger = compare(value, { units: 1n, scale: 0 }) >= 0
  const [left, right] = fromIsStronger ? [from, to] : [to, from]
  const figure = toSignificant(fromIsStronger ? value : reciprocal(value, RATE_DIGITS), RATE_DIGITS)
  const [whole, fraction = ''] = figure.split('.')
  return ltrIsland(
    language,
    `${digits(language, '1', '')}${NBSP}${left} = ${digits(language, whole!, fraction)}${NBSP}${right}`,
  )
}

/**
 * A plain figure that is not money (a fee's percent, "0.5" → "0,5" in
 * Russian): every digit it has, trailing zeros trimmed, in the language's
 * separators.
 * @throws RangeError for a string that is not a decimal
 */
export function formatFigure(language: Language, value: string): string {
  const parts = split(value)
  return ltrIsland(
    language,
    `${parts.negative ? MINUS : ''}${digits(language, parts.whole, parts.fraction)}`,
  )
}
