import type { Language, Translate } from '../../i18n/i18n.tsx'

/**
 * What a person types into an amount field, read as the decimal string the
 * API takes ("1 234,5" in Russian → "1234.5"), never through a float. English
 * reads a comma as a thousands separator, so "1,000" is a thousand — but only
 * where it can be nothing else: a misread amount is money.
 *
 * - A thousands group starts with 1–3 digits, not with 0: "0,001" is someone's
 *   decimal comma, refused with a hint to write "0.001" (never read as 1).
 * - "1,234" in a currency with 3 or more decimals (BTC, ETH) is a thousand
 *   or one and a bit: refused as ambiguous, the person writes which.
 */
export type AmountReading =
  | { ok: true; amount: string }
  | { ok: false; problem: 'empty' | 'format' | 'zero' | 'decimals' }
  /** An English decimal comma: `suggestion` is the amount written with a dot. */
  | { ok: false; problem: 'comma'; suggestion: string }
  /** "1,234" where a currency has ≥ 3 decimals: `decimal` ("1.234") or `whole` ("1234"). */
  | { ok: false; problem: 'ambiguous'; decimal: string; whole: string }

/** The API's Amount: up to 30 integer digits. */
const MAX_INTEGER_DIGITS = 30
const SPACES = /[\s\u00a0\u202f']/g
const EN_GROUPED = /^[1-9]\d{0,2}(,\d{3})+(\.\d*)?$/
/** One group and no decimal point: "1,234". */
const EN_ONE_GROUP = /^[1-9]\d{0,2},\d{3}$/
/** One comma between digits, no dot: what a decimal comma looks like. */
const DECIMAL_COMMA = /^\d*,\d+$/
const PLAIN = /^(\d*)(?:\.(\d*))?$/

export function readAmount(text: string, decimals: number, language: string): AmountReading {
  let value = text.replace(SPACES, '')
  if (value === '') return { ok: false, problem: 'empty' }
  if (value.includes(',')) {
    if (language === 'en') {
      if (!EN_GROUPED.test(value)) {
        return DECIMAL_COMMA.test(value)
          ? { ok: false, problem: 'comma', suggestion: value.replace(',', '.') }
          : { ok: false, problem: 'format' }
      }
      if (decimals >= 3 && EN_ONE_GROUP.test(value)) {
        return {
          ok: false,
          problem: 'ambiguous',
          decimal: value.replace(',', '.'),
          whole: value.replace(',', ''),
        }
      }
      value = value.replaceAll(',', '')
    } else {
      // A decimal comma; a dot as well would make one of them a separator we cannot tell.
      if (value.includes('.') || value.indexOf(',') !== value.lastIndexOf(',')) {
        return { ok: false, problem: 'format' }
      }
      value = value.replace(',', '.')
    }
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
  language === 'ru' ? amount.replace('.', ',') : amount

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
    case 'comma':
      return t('orders.amount.comma', { example: reading.suggestion })
    case 'ambiguous':
      return t('orders.amount.ambiguous', {
        text: reading.decimal.replace('.', ','),
        decimal: reading.decimal,
        whole: reading.whole,
      })
    case 'format':
      return t('orders.amount.format', { example: inputText('12.50', language) })
  }
}
