/**
 * Names people and keys give things — an API key, a card, a passkey, a
 * webhook, a counterparty, a bank account, a deposit address, themselves —
 * as the server keeps them: without bidi controls (U+202A–U+202E,
 * U+2066–U+2069, U+200E/F, U+061C), which can make "exe.txt" show as
 * "txt.exe" or a name read as another's, without zero-width characters
 * (U+200B–U+200D, U+2060, U+FEFF), which make two names that look alike
 * differ, in NFC (one spelling of "é"), trimmed.
 *
 * Pure: no imports (the app may take it as a value).
 */

const INVISIBLE = '\\u061C\\u200B-\\u200F\\u202A-\\u202E\\u2060\\u2066-\\u2069\\uFEFF'
const INVISIBLE_CHARACTERS = new RegExp(`[${INVISIBLE}]`, 'gu')

/**
 * A JSON Schema `pattern` for a name that must not be blank: it holds a
 * character that is neither a space nor one normaliseName removes, so the
 * normalised name is never empty.
 */
export const VISIBLE_CHARACTER = `[^\\s${INVISIBLE}]`

/**
 * The name as it is kept and shown. The invisible characters go first, so
 * what they separated can compose ("e", U+200B, U+0301 → "é").
 */
export function normaliseName(name: string): string {
  return name.replace(INVISIBLE_CHARACTERS, '').normalize('NFC').trim()
}
