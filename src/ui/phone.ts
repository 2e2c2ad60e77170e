/** What a phone field holds: a calling-code choice ("US:1") and the number as typed. */
export interface PhoneDraft {
  choice: string
  national: string
}

export const emptyPhone: PhoneDraft = { choice: '', national: '' }

const digitsOf = (text: string) => text.replace(/\D/g, '')

/**
 * Where a leading 0 belongs to the number itself and is kept in the
 * international form (Italy and the countries inside it); elsewhere it is the
 * trunk prefix people type out of habit and the international form drops.
 */
const KEEPS_LEADING_ZERO = new Set(['IT', 'SM', 'VA'])

/**
 * The international number ("+14155552671") from a calling code and the
 * national number as typed ("(415) 555-2671"). Someone who types the whole
 * number with "+" is taken at their word. The server validates the result
 * (libphonenumber) and keeps its digits: a mistake here is a 422, not a wrong number.
 */
export function internationalPhone(dial: string, national: string, country = ''): string {
  const typed = national.trim()
  if (typed.startsWith('+')) return `+${digitsOf(typed)}`
  let digits = digitsOf(typed)
  if (!KEEPS_LEADING_ZERO.has(country)) digits = digits.replace(/^0+/, '')
  // North America: 10-digit numbers, "1 415 555 2671" repeats the code.
  if (dial === '1' && digits.length === 11 && digits.startsWith('1')) digits = digits.slice(1)
  // Russia and Kazakhstan: 10-digit numbers, dialled at home as "8 912 …" or typed as "7 912 …".
  if (dial === '7' && digits.length === 11 && /^[78]/.test(digits)) digits = digits.slice(1)
  return `+${dial}${digits}`
}

/** Whether the number typed is long enough to be worth sending (the server has the last word). */
export const looksLikePhone = (national: string) => digitsOf(national).length >= 4
