import { parsePhoneNumberFromString } from 'libphonenumber-js/max'

/**
 * What a person may type: digits, spaces, brackets, dots and dashes, with an
 * optional leading "+". Anything else (letters, a second "+", text around the
 * number) is refused rather than guessed at — this is a login identifier.
 */
const TYPED_PHONE = /^\+?[0-9\s().-]+$/

/**
 * A phone as a login identifier (docs/product.md §3): validated against the full
 * ("max") metadata of libphonenumber-js, then kept as its E.164 digits without
 * the "+". "+1 (415) 555-2671", "+14155552671" and "14155552671" are one person.
 *
 * A number without a "+" is read as international: its digits start with the
 * country code (there is no home country to assume). A leading "00", the
 * international prefix of most of the world, counts as "+".
 *
 * @returns the digits, or undefined when the input cannot be a phone number.
 */
export function normalisePhone(input: string): string | undefined {
  const typed = input.trim()
  if (!TYPED_PHONE.test(typed)) return undefined
  const digits = typed.replace(/\D/g, '')
  const international = typed.startsWith('+') ? digits : digits.replace(/^00/, '')
  const parsed = parsePhoneNumberFromString(`+${international}`, { extract: false })
  if (!parsed?.isValid()) return undefined
  return parsed.number.slice(1)
}
