import type { UserData, UserDataPatch } from '../../../contract/user.ts'
import type { Language } from '../../i18n/i18n.tsx'

/** The personal-details form as typed: every field a string, empty for "not given". */
export interface DetailsForm {
  first_name: string
  last_name: string
  date_of_birth: string
  language: Language
  country: string
  city: string
  line1: string
  line2: string
  postal_code: string
  state: string
}

export const ADDRESS_FIELDS = ['country', 'city', 'line1', 'line2', 'postal_code', 'state'] as const
type AddressField = (typeof ADDRESS_FIELDS)[number]
/** An address needs these; line2 and state may stay empty. */
const REQUIRED_ADDRESS: readonly AddressField[] = ['country', 'city', 'line1', 'postal_code']
const PLAIN_FIELDS = ['first_name', 'last_name', 'date_of_birth'] as const

/** The stored profile as the form shows it; with no language chosen yet, the one in use. */
export function toForm(data: UserData, current: Language): DetailsForm {
  const address = data.address
  return {
    first_name: data.first_name ?? '',
    last_name: data.last_name ?? '',
    date_of_birth: data.date_of_birth ?? '',
    language: data.language ?? current,
    country: address?.country ?? '',
    city: address?.city ?? '',
    line1: address?.line1 ?? '',
    line2: address?.line2 ?? '',
    postal_code: address?.postal_code ?? '',
    state: address?.state ?? '',
  }
}

const same = (a: string, b: string) => a.trim() === b.trim()

/**
 * The PATCH body: only the fields that differ from what was loaded; an
 * emptied field is sent as null (cleared). The address is one value on the
 * server, so any change to it sends the whole address, or null when emptied.
 */
export function changes(before: DetailsForm, after: DetailsForm): UserDataPatch {
  const patch: UserDataPatch = {}
  for (const field of PLAIN_FIELDS) {
    if (!same(before[field], after[field])) patch[field] = after[field].trim() || null
  }
  if (before.language !== after.language) patch.language = after.language
  if (ADDRESS_FIELDS.some((field) => !same(before[field], after[field]))) {
    patch.address = ADDRESS_FIELDS.every((field) => !after[field].trim())
      ? null
      : {
          country: after.country,
          city: after.city.trim(),
          line1: after.line1.trim(),
          line2: after.line2.trim() || null,
          postal_code: after.postal_code.trim(),
          state: after.state.trim() || null,
        }
  }
  return patch
}

/** Address fields left empty in an address that is otherwise being given. */
export function missingAddressFields(form: DetailsForm): AddressField[] {
  if (ADDRESS_FIELDS.every((field) => !form[field].trim())) return []
  return REQUIRED_ADDRESS.filter((field) => !form[field].trim())
}

/** The JSON pointer the server uses for a form field (`errors[].field`). */
export const pointerOf = (field: keyof DetailsForm) =>
  (ADDRESS_FIELDS as readonly string[]).includes(field)
    ? `/body/address/${field}`
    : `/body/${field}`
