import { formatLocale } from '../../i18n/digits.ts'
import type { Language, Translate } from '../../i18n/i18n.tsx'

/**
 * What a person types into an amount field, read as the decimal string the
 * API takes ("1 234,5" in Russian, "1.234,5" in German → "1234.5"), never
 * through a float; Persian and Arabic digits read as the digits they are.
 *
 * Where a language groups thousands with the mark another writes decimals with
 * (English "1,000"; German, Spanish, Portuguese, Turkish, Indonesian "1.000"),
 * its group mark is read as one only where it can be nothing else: a misread
 * amount is money.
 * - A group starts with 1–3 digits, not with 0: English "0,001" is someone's
 *   decimal comma, refused with a hint to write "0.001" (never read as 1).
 * - "1,234" (German "1.234") in a currency with 3 or more decimals (BTC, ETH)
 *   is a thousand or one and a bit: refused as ambiguous, the person writes which.
 * Where the group mark is a space (Russian, Ukrainian) or the Arabic separator,
 * a comma or a dot is the decimal mark, whichever is typed.
 */
export type AmountReading =
  | { ok: true; amount: string }
  | { ok: false; problem: 'empty' | 'format' | 'zero' | 'decimals' }
  /** The language's group mark where a decimal was meant: `suggestion` is the amount with its decimal mark. */
  | { ok: false; problem: 'separator'; suggestion: string }
  /** "1,234" where a currency has ≥ 3 decimals: `decimal` ("1.234") or `whole` ("1234"), as `text` was typed. */
  | { ok: false; problem: 'ambiguous'; text: string; decimal: string; whole: string }

/** The API's Amount: up to 30 integer digits. */
const MAX_INTEGER_DIGITS = 30
/** Spaces, apostrophes and the Arabic thousands separator: grouping only. */
const SPACES = /[\s\u00a0\u202f'\u066c]/g
/** Arabic-Indic (U+0660) and Persian (U+06F0) digits. */
const NATIVE_DIGITS = /[\u0660-\u0669\u06f0-\u06f9]/g
const ARABIC_DECIMAL = '\u066b'
const PLAIN = /^(\d*)(?:\.(\d*))?$/

/** How `language` marks decimals, and its group mark when that is the other one ('.' or ','). */
function marksOf(language: string): { decimal: '.' | ','; group?: '.' | ',' } {
  // The marks the screen shows: Latin digits by choice bring Latin marks too ("1,234.5" in Persian).
  const parts = new Intl.NumberFormat(formatLocale(language)).formatToParts(12345.6)
  const decimal = parts.find((part) => part.type === 'decimal')?.value === ',' ? ',' : '.'
  const group = parts.find((part) => part.type === 'group')?.value
  return group === ',' || group === '.' ? { decimal, group } : { decimal }
}

const literal = (mark: string) => `\\${mark}`

export function readAmount(text: string, decimals: number, language: string): AmountReading {
  let value = text
    .replace(NATIVE_DIGITS, (digit) => String(digit.charCodeAt(0) & 0xf))
    .replace(SPACES, '')
    .replace(ARABIC_DECIMAL, '.')
  if (value === '') return { ok: false, problem: 'empty' }
  const { decimal, group } = marksOf(language)
  if (group) {
    const [g, d] = [literal(group), literal(decimal)]
    if (value.includes(group)) {
      if (!new RegExp(`^[1-9]\\d{0,2}(${g}\\d{3})+(${d}\\d*)?$`).test(value)) {
        return new RegExp(`^\\d*${g}\\d+$`).test(value)
          ? { ok: false, problem: 'separator', suggestion: value.replace(group, decimal) }
          : { ok: false, problem: 'format' }
      }
      if (decimals >= 3 && new RegExp(`^[1-9]\\d{0,2}${g}\\d{3}$`).test(value)) {
        return {
          ok: false,
          problem: 'ambiguous',
          text: value,
          decimal: value.replace(group, decimal),
          whole: value.replace(group, ''),
        }
      }
      value = value.replaceAll(group, '')
    }
    value = value.replace(decimal, '.')
  } else if (value.includes(',')) {
    // A decimal comma; a dot as well would make one of them a separator we cannot tell.
    if (value.includes('.') || value.indexOf(',') !== value.lastIndexOf(',')) {
      return { ok: false, problem: 'format' }
    }
    value = value.replace(',', '.')
  }
  const match = PLAIN.exec(value)
  if (!match || (match[1] === '' && !match[2])) return { ok: false, problem: 'format' }
  const whole = match[1]!.replace(/^0+(?=\d)/, '') || '0'
  // Zeros past the currency's decimals change nothing; digits do.
  const fraction = (match[2] ?? '').replace(/0+$/, '')
  if (whole.length > MAX_INTEGER_DIGITS) return { ok: false, problem: 'format' }
  if (fraction.length > decimals) return { ok: false, problem: 'decimals' }
  if (/^0*$/.test(whole + fraction)) return { ok: false, problem: 'zero' }
  return { ok: true, amount: fraction ? `${whole}.${fraction}` : whole }
}

/** A decimal string as the person's language writes it in a field (no grouping: it is edited). */
export const inputText = (amount: string, language: Language) =>
  marksOf(language).decimal === ',' ? amount.replace('.', ',') : amount

export function amountProblem(
  t: Translate,
  reading: Exclude<AmountReading, { ok: true } | { problem: 'empty' }>,
  side: { currency: string; decimals: number },
  language: Language,
) {
  switch (reading.problem) {
    case 'zero':
      return t('orders.amount.zero')
    case 'decimals':
      return side.decimals === 0
        ? t('orders.amount.wholeOnly', { currency: side.currency })
        : t('orders.amount.decimals', { currency: side.currency, decimals: side.decimals })
    case 'separator':
      return t('orders.amount.separator', { example: reading.suggestion })
    case 'ambiguous':
      return t('orders.amount.ambiguous', {
        text: reading.text,
        decimal: reading.decimal,
        whole: reading.whole,
      })
    case 'format':
      return t('orders.amount.format', { example: inputText('12.50', language) })
  }
}
