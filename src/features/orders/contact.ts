import type { TransferTarget } from '../../../contract/transfers.ts'

/** A recipient named by a contact (not by a user id from the recent people). */
export type Contact = Exclude<TransferTarget, { user_id: string }>

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/
/** Telegram's rule (contract/transfers.ts): 5–32 letters, digits and underscores. */
const USERNAME = /^@?[A-Za-z0-9_]{5,32}$/
/** Digits with the separators people type; at least six digits, a "+" only first. */
const PHONE = /^\+?[\d\s().-]+$/

/**
 * What a person typed into the "To" field, as the API names a recipient: an
 * e-mail ("anna@example.com"), a Telegram username ("@anna_s", the "@"
 * optional when it cannot be read as anything else) or a phone number
 * ("+49 170 1234567", sent without its spaces). Undefined while it is none
 * of them yet: nothing is looked up for half a contact.
 */
export function contactOf(text: string): Contact | undefined {
  const value = text.trim()
  if (value === '') return undefined
  if (EMAIL.test(value)) return { email: value }
  if (PHONE.test(value)) {
    const digits = value.replace(/\D/g, '')
    if (digits.length < 6 || digits.length > 15) return undefined
    return { phone: `${value.startsWith('+') ? '+' : ''}${digits}` }
  }
  if (USERNAME.test(value) && !/^@?\d+$/.test(value)) {
    return { telegram_username: value.replace(/^@/, '') }
  }
  return undefined
}

/** The contact as the person reads it back: "anna@example.com", "@anna_s", "+491701234567". */
export function contactText(target: Contact): string {
  if ('email' in target) return target.email
  if ('phone' in target) return target.phone
  return `@${target.telegram_username}`
}
