/**
 * What a person types into an amount field, read as the decimal string the
 * API takes ("1 234,5" in Russian → "1234.5"), never through a float. English
 * reads a comma as a thousands separator, so "1,000" is a thousand — and a
 * comma anywhere else is refused rather than guessed: a misread amount is money.
 */
export type AmountReading =
  | { ok: true; amount: string }
  | { ok: false; problem: 'empty' | 'format' | 'zero' | 'decimals' }

/** The API's Amount: up to 30 integer digits. */
const MAX_INTEGER_DIGITS = 30
const SPACES = /[\s\u00a0\u202f']/g
const EN_GROUPED = /^\d{1,3}(,\d{3})+(\.\d*)?$/
const PLAIN = /^(\d*)(?:\.(\d*))?$/

export function readAmount(text: string, decimals: number, language: string): AmountReading {
  let value = text.replace(SPACES, '')
  if (value === '') return { ok: false, problem: 'empty' }
  if (value.includes(',')) {
    if (language === 'en') {
      if (!EN_GROUPED.test(value)) return { ok: false, problem: 'format' }
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
