/**
 * RFC 4180 CSV, as every export writes it (wallet transactions, card
 * transactions): the kernel's, so an area that exports reaches down for it
 * and never sideways into another area's rules. No IO here.
 */

/** RFC 4180 ends every record, the last included, with CRLF. */
export const CRLF = '\r\n'

// A spreadsheet runs a cell starting with one of these as a formula (OWASP
// "CSV injection"); tab and CR start one in some of them too.
const FORMULA_START = /^[=+\-@\t\r]/
// RFC 4180: a field holding a comma, a quote, CR or LF is quoted.
const NEEDS_QUOTES = /[",\r\n]/

/**
 * One field: null is empty; a value a spreadsheet would run as a formula gets
 * a leading apostrophe (no value we export starts that way legitimately:
 * amounts are never negative); quotes are doubled inside a quoted field.
 */
export function csvField(value: string | number | null): string {
  if (value === null) return ''
  let text = String(value)
  if (FORMULA_START.test(text)) text = `'${text}`
  return NEEDS_QUOTES.test(text) ? `"${text.replaceAll('"', '""')}"` : text
}

export const csvRecord = (fields: readonly (string | number | null)[]) =>
  fields.map(csvField).join(',') + CRLF
