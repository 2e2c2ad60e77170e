import type {
  Counterparty,
  CounterpartyType,
  CreateCounterpartyBody,
  UpdateCounterpartyBody,
} from '../../../contract/counterparties.ts'
import type { Address } from '../../../contract/user.ts'
import type { MessageKey } from '../../i18n/en.ts'
import { looksLikePhone } from '../../ui/phone.ts'
import { isEmail } from '../../ui/validation.ts'
import type { Problems } from './form-check.tsx'

/**
 * The counterparty form as typed: every field a string, empty for "not
 * given". The phone is the number as sent ("+4915112345678"): the editor
 * builds it from the calling code and the national number.
 */
export interface CounterpartyForm {
  type: CounterpartyType
  first_name: string
  last_name: string
  legal_name: string
  country: string
  email: string
  phone: string
  line1: string
  line2: string
  city: string
  postal_code: string
  state: string
}

export type CounterpartyField = Exclude<keyof CounterpartyForm, 'type'>

const ADDRESS_FIELDS = ['line1', 'line2', 'city', 'postal_code', 'state'] as const
/** An address needs these; line2 and state may stay empty. */
const REQUIRED_ADDRESS = ['line1', 'city', 'postal_code'] as const
type NameField = 'first_name' | 'last_name' | 'legal_name'
const NAME_FIELDS: Record<CounterpartyType, readonly NameField[]> = {
  INDIVIDUAL: ['first_name', 'last_name'],
  BUSINESS: ['legal_name'],
}

export const emptyCounterparty = (type: CounterpartyType = 'INDIVIDUAL'): CounterpartyForm => ({
  type,
  first_name: '',
  last_name: '',
  legal_name: '',
  country: '',
  email: '',
  phone: '',
  line1: '',
  line2: '',
  city: '',
  postal_code: '',
  state: '',
})

/** A stored phone as the form holds it: international, with "+" (the server may keep digits only). */
export const displayPhone = (phone: string) => (phone.startsWith('+') ? phone : `+${phone}`)

export function toForm(counterparty: Counterparty): CounterpartyForm {
  const address = counterparty.address
  return {
    type: counterparty.type,
    first_name: counterparty.first_name ?? '',
    last_name: counterparty.last_name ?? '',
    legal_name: counterparty.legal_name ?? '',
    country: counterparty.country,
    email: counterparty.email ?? '',
    phone: counterparty.phone ? displayPhone(counterparty.phone) : '',
    line1: address?.line1 ?? '',
    line2: address?.line2 ?? '',
    city: address?.city ?? '',
    postal_code: address?.postal_code ?? '',
    state: address?.state ?? '',
  }
}

const hasAddress = (form: CounterpartyForm) => ADDRESS_FIELDS.some((field) => form[field].trim())

/** The fields the form shows for its type, in screen order (the summary lists them so). */
export const visibleFields = (type: CounterpartyType): readonly CounterpartyField[] => [
  ...NAME_FIELDS[type],
  'country',
  'email',
  'phone',
  ...ADDRESS_FIELDS,
]

const NAME_MAX: Record<NameField, number> = {
  first_name: 100,
  last_name: 100,
  legal_name: 200,
}

/**
 * What stops the form being sent, by the rules of the contract: the names
 * its type needs, a country, a plausible e-mail and phone when given, and an
 * address either whole or not at all. `phoneTyped` is the national number as
 * typed (the calling code alone is not a phone).
 */
export function counterpartyProblems(
  form: CounterpartyForm,
  phoneTyped: string,
): Problems<CounterpartyField> {
  const problems: Problems<CounterpartyField> = {}
  for (const field of NAME_FIELDS[form.type]) {
    const value = form[field].trim()
    if (!value) problems[field] = 'error.required'
    else if (value.length > NAME_MAX[field]) problems[field] = 'cp.error.tooLong'
  }
  if (!form.country) problems.country = 'cp.error.country'
  if (form.email.trim() && !isEmail(form.email)) problems.email = 'error.emailInvalid'
  if (phoneTyped.trim() && !looksLikePhone(phoneTyped)) problems.phone = 'error.field.phone'
  if (hasAddress(form)) {
    for (const field of REQUIRED_ADDRESS)
      if (!form[field].trim()) problems[field] = 'error.required'
  }
  return problems
}

const optional = (value: string) => value.trim() || null

function addressOf(form: CounterpartyForm): Address | null {
  if (!hasAddress(form)) return null
  // The address is in the counterparty's country: one country to choose, not two.
  return {
    country: form.country,
    line1: form.line1.trim(),
    line2: optional(form.line2),
    city: form.city.trim(),
    postal_code: form.postal_code.trim(),
    state: optional(form.state),
  }
}

/** POST body: the names of its type only, optional fields only when given. */
export function createBody(form: CounterpartyForm): CreateCounterpartyBody {
  const body: CreateCounterpartyBody = { type: form.type, country: form.country }
  for (const field of NAME_FIELDS[form.type]) body[field] = form[field].trim()
  if (form.email.trim()) body.email = form.email.trim()
  if (form.phone) body.phone = form.phone
  const address = addressOf(form)
  if (address) body.address = address
  return body
}

const same = (a: string, b: string) => a.trim() === b.trim()
const digits = (phone: string) => phone.replace(/\D/g, '')

/**
 * PATCH body: only what differs from what was loaded; an emptied optional
 * field is sent as null (cleared). The address is one value on the server:
 * any change sends all of it, or null when emptied. A change of country
 * moves the address with it.
 */
export function changes(before: CounterpartyForm, after: CounterpartyForm): UpdateCounterpartyBody {
  const patch: UpdateCounterpartyBody = {}
  for (const field of NAME_FIELDS[after.type]) {
    if (!same(before[field], after[field])) patch[field] = after[field].trim()
  }
  if (before.country !== after.country) patch.country = after.country
  if (!same(before.email, after.email)) patch.email = optional(after.email)
  if (digits(before.phone) !== digits(after.phone)) patch.phone = after.phone || null
  const addressChanged = ADDRESS_FIELDS.some((field) => !same(before[field], after[field]))
  if (addressChanged || (patch.country && hasAddress(after))) patch.address = addressOf(after)
  return patch
}

/** The form field a server pointer (`errors[].field`) stands for. */
export function fieldOfPointer(pointer: string): CounterpartyField | undefined {
  const [, body, name, part] = pointer.split('/')
  if (body !== 'body' || !name) return undefined
  if (name === 'address') {
    // The address as a whole, or its country (the counterparty's): shown where it is chosen.
    if (!part) return 'line1'
    if (part === 'country') return 'country'
    return (ADDRESS_FIELDS as readonly string[]).includes(part)
      ? (part as CounterpartyField)
      : undefined
  }
  return name in emptyCounterparty() && name !== 'type' ? (name as CounterpartyField) : undefined
}

/** Our words for a field the server refused. */
export function refusedMessage(field: CounterpartyField): MessageKey {
  switch (field) {
    case 'email':
      return 'error.emailInvalid'
    case 'phone':
      return 'error.field.phone'
    case 'country':
      return 'error.field.country'
    case 'first_name':
    case 'last_name':
    case 'legal_name':
      return 'cp.error.name'
    default:
      return 'error.field.invalid'
  }
}
