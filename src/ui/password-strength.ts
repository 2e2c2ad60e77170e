import {
  MIN_PASSWORD_LENGTH,
  type PasswordProblem,
  passwordProblem,
} from '../../contract/password-rule.ts'

export { MIN_PASSWORD_LENGTH, type PasswordProblem }

/**
 * How a new password fares as it is typed: refused (and why, by the server's
 * own rule: contract/password-rule.ts), or accepted and how hard it is to
 * guess — fair, good or strong, by its length and its kinds of character.
 */
export type Strength =
  | { accepted: false; problem: PasswordProblem }
  | { accepted: true; level: 'fair' | 'good' | 'strong' }

/** Lower case, upper case, digits, everything else: how many of the four a password uses. */
function kindsOf(password: string): number {
  return [/\p{Ll}/u, /\p{Lu}/u, /\p{N}/u, /[^\p{L}\p{N}]/u].filter((kind) => kind.test(password))
    .length
}

export function strengthOf(
  password: string,
  context: { email?: string; isCommon: (lowerCase: string) => boolean },
): Strength {
  const problem = passwordProblem(password, context)
  if (problem) return { accepted: false, problem }
  const length = [...password].length
  const kinds = kindsOf(password)
  if (length >= 16 || (length >= 12 && kinds >= 3)) return { accepted: true, level: 'strong' }
  if (length >= 12 || kinds >= 3) return { accepted: true, level: 'good' }
  return { accepted: true, level: 'fair' }
}

let common: Promise<ReadonlySet<string>> | undefined

/**
 * The list of common passwords the server refuses (zxcvbn-ts's, ~49,000
 * entries): its own lazy chunk, fetched when the sign-up screen's password
 * field is first used, never in the first download nor precached.
 */
export function loadCommonPasswords(): Promise<ReadonlySet<string>> {
  common ??= import('@zxcvbn-ts/language-common/dist/passwords.json.mjs').then(
    (module) => new Set(module.default),
    (error: unknown) => {
      // Not fatal: the server still refuses a common password; ask again next time.
      common = undefined
      throw error
    },
  )
  return common
}
