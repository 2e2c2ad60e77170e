import { normaliseName } from '../../../contract/names.ts'
import type { Address, UserDataPatch } from '../../../contract/user.ts'
import { serves } from '../tenants/rules.ts'

/**
 * What a profile change must satisfy beyond its schema (contract/user.ts).
 * Pure: the caller passes today's date and the list of known countries.
 */

export const MIN_AGE = 18
export const MAX_AGE = 120

export interface FieldError {
  /** JSON pointer into the request, as the schema's own 422s name fields. */
  field: string
  message: string
}

export type PatchVerdict =
  | { ok: true; changes: UserDataPatch }
  | { ok: false; errors: FieldError[] }

export interface PatchContext {
  /** `YYYY-MM-DD`, the date the age is reckoned on (UTC). */
  today: string
  isKnownCountry: (code: string) => boolean
}

/**
 * Checks a PATCH /user/user-data body and returns it normalised (names and
 * address lines trimmed, an emptied optional line as null), or every field
 * that is wrong: a form shows all its mistakes at once, not one per submit.
 * Fields not sent stay absent; null (clearing a field) is always allowed.
 */
export function checkUserDataPatch(patch: UserDataPatch, context: PatchContext): PatchVerdict {
  const errors: FieldError[] = []
  const changes: UserDataPatch = { ...patch }
  const fail = (field: string, message: string) => errors.push({ field: `/body/${field}`, message })

  for (const name of ['first_name', 'last_name'] as const) {
    const value = patch[name]
    if (typeof value !== 'string') continue
    changes[name] = normaliseName(value)
    if (changes[name] === '') fail(name, 'must not be blank')
  }

  if (typeof patch.date_of_birth === 'string') {
    const problem = birthDateProblem(patch.date_of_birth, context.today)
    if (problem) fail('date_of_birth', problem)
  }

  if (patch.address) {
    const address = trimAddress(patch.address)
    changes.address = address
    if (!context.isKnownCountry(address.country)) fail('address/country', 'is not a known country')
    for (const line of ['city', 'line1', 'postal_code'] as const) {
      if (address[line] === '') fail(`address/${line}`, 'must not be blank')
    }
  }

  return errors.length > 0 ? { ok: false, errors } : { ok: true, changes }
}

/**
 * Whether an address may be saved in `country`: the tenant serves it (its
 * `supported_countries`; null or empty: every country, as the app's `serves`),
 * or it is the country the person already has saved. A tenant may narrow its
 * list after people saved their addresses; sending back what is saved (to fix
 * a street, say) must not fail.
 */
export function countryAccepted(
  country: string,
  supported: readonly string[] | null,
  savedCountry: string | null | undefined,
): boolean {
  return serves(supported, country) || country === savedCountry
}

function birthDateProblem(birthDate: string, today: string): string | undefined {
  // ISO dates of the same length compare as strings.
  if (birthDate > today) return 'must not be in the future'
  const age = ageOn(birthDate, today)
  if (age < MIN_AGE) return `must be at least ${MIN_AGE} years ago: you must be ${MIN_AGE} or older`
  if (age > MAX_AGE) return `must be within the last ${MAX_AGE} years`
  return undefined
}

/**
 * Whole years between two `YYYY-MM-DD` dates, the way birthdays count: one
 * more on the day the month and day come round. Someone born on 29 February
 * is a year older on 1 March in a year without one.
 */
export function ageOn(birthDate: string, today: string): number {
  const years = Number(today.slice(0, 4)) - Number(birthDate.slice(0, 4))
  return today.slice(5) < birthDate.slice(5) ? years - 1 : years
}

function trimAddress(address: Address): Address {
  const optional = (value: string | null | undefined) =>
    value === undefined ? undefined : value?.trim() || null
  return {
    country: address.country,
    city: address.city.trim(),
    line1: address.line1.trim(),
    ...(address.line2 !== undefined && { line2: optional(address.line2) }),
    postal_code: address.postal_code.trim(),
    ...(address.state !== undefined && { state: optional(address.state) }),
  }
}
