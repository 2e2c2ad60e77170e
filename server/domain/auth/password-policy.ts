import { dictionary } from '@zxcvbn-ts/language-common'

/**
 * What a new password must be (sign-up only: sign-in never re-judges an old
 * password, or people would be locked out of accounts they own). Pure: no IO.
 *
 * - at least MIN_LENGTH characters (code points, as the JSON schema counts them);
 * - not one of the ~49,000 passwords most often seen in breaches, ignoring case
 *   (zxcvbn-ts's common list, shipped with the package: nothing is fetched);
 * - not containing the local part of the person's own e-mail address.
 */
export const MIN_LENGTH = 8

/**
 * A local part shorter than this is not looked for: forbidding every password
 * that contains "al" would refuse good passwords and protect nothing.
 */
const MIN_LOCAL_PART = 3

// The list is lower-case already; a Set makes each check one lookup.
const COMMON = new Set(dictionary['passwords-common'])

export type PasswordVerdict = { ok: true } | { ok: false; reason: string }

export function judgePassword(password: string, context: { email?: string }): PasswordVerdict {
  if ([...password].length < MIN_LENGTH) {
    return { ok: false, reason: `must be at least ${MIN_LENGTH} characters long` }
  }
  const lower = password.toLowerCase()
  if (COMMON.has(lower)) {
    return {
      ok: false,
      reason: 'is one of the most common passwords and would be guessed quickly; choose another',
    }
  }
  const local = context.email?.trim().toLowerCase().split('@')[0] ?? ''
  // "ada+bank" is Ada's address too: look for the part before the tag as well.
  const parts = [local, local.split('+')[0] ?? ''].filter((part) => part.length >= MIN_LOCAL_PART)
  if (parts.some((part) => lower.includes(part))) {
    return { ok: false, reason: 'must not contain your e-mail address' }
  }
  return { ok: true }
}
