/**
 * What a new password must be, checked the same way by the server (which
 * decides) and by the sign-up screen (which says it before it is broken):
 *
 * - at least MIN_PASSWORD_LENGTH characters (code points, as the JSON schema counts them);
 * - not one of the passwords most often seen in breaches, ignoring case
 *   (`isCommon` answers from zxcvbn-ts's common list, which each side loads itself);
 * - not containing the local part of the person's own e-mail address.
 *
 * Pure: no IO, no imports.
 */
export const MIN_PASSWORD_LENGTH = 8

/**
 * A local part shorter than this is not looked for: forbidding every password
 * that contains "al" would refuse good passwords and protect nothing.
 */
const MIN_LOCAL_PART = 3

export type PasswordProblem = 'too_short' | 'common' | 'contains_email'

export function passwordProblem(
  password: string,
  context: { email?: string; isCommon: (lowerCase: string) => boolean },
): PasswordProblem | undefined {
  if ([...password].length < MIN_PASSWORD_LENGTH) return 'too_short'
  const lower = password.toLowerCase()
  if (context.isCommon(lower)) return 'common'
  const local = context.email?.trim().toLowerCase().split('@')[0] ?? ''
  // "ada+bank" is Ada's address too: look for the part before the tag as well.
  const parts = [local, local.split('+')[0] ?? ''].filter((part) => part.length >= MIN_LOCAL_PART)
  if (parts.some((part) => lower.includes(part))) return 'contains_email'
  return undefined
}
