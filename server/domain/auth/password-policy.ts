import { dictionary } from '@zxcvbn-ts/language-common'
import {
  MIN_PASSWORD_LENGTH,
  type PasswordProblem,
  passwordProblem,
} from '../../../contract/password-rule.ts'

/**
 * What a new password must be (sign-up only: sign-in never re-judges an old
 * password, or people would be locked out of accounts they own): the rule of
 * contract/password-rule.ts, which the sign-up screen applies too, with the
 * ~49,000 passwords most often seen in breaches (zxcvbn-ts's common list,
 * shipped with the package: nothing is fetched). Pure: no IO.
 */
export const MIN_LENGTH = MIN_PASSWORD_LENGTH

// The list is lower-case already; a Set makes each check one lookup.
const COMMON = new Set(dictionary['passwords-common'])

export type PasswordVerdict = { ok: true } | { ok: false; reason: string }

const REASONS: Record<PasswordProblem, string> = {
  too_short: `must be at least ${MIN_PASSWORD_LENGTH} characters long`,
  common: 'is one of the most common passwords and would be guessed quickly; choose another',
  contains_email: 'must not contain your e-mail address',
}

export function judgePassword(password: string, context: { email?: string }): PasswordVerdict {
  const problem = passwordProblem(password, {
    email: context.email,
    isCommon: (lower) => COMMON.has(lower),
  })
  return problem ? { ok: false, reason: REASONS[problem] } : { ok: true }
}
