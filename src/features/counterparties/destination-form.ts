import type {
  CreateDestinationBody,
  Destination,
  DestinationType,
  UpdateDestinationBody,
} from '../../../contract/counterparties.ts'
import type { MessageKey } from '../../i18n/en.ts'
import {
  checkIban,
  electronicIban,
  groupIban,
  isBic,
  isRoutingNumber,
  isUsAccountNumber,
  isUuid,
  looksLikeAddress,
} from './bank-checks.ts'
import type { Problems } from './form-check.tsx'

export type DestinationField =
  | 'iban'
  | 'bic'
  | 'account_number'
  | 'routing_number'
  | 'account_type'
  | 'bank_name'
  | 'bank_country'
  | 'chain'
  | 'address'
  | 'wallet_uuid'
  | 'label'

/** The destination form as typed; `type` is "" until a rail is chosen. The IBAN is kept grouped. */
export type DestinationForm = Record<DestinationField, string> & { type: DestinationType | '' }

/** Everything the form can name in a problem: its fields and the rail picker. */
export type DestinationInput = DestinationField | 'type'

/**
 * The fields of each rail, in screen order (the contract's table on
 * Destination). SWIFT takes an IBAN or, where the country has none, an account number.
 */
export const RAIL_FIELDS: Record<DestinationType, readonly DestinationField[]> = {
  SEPA: ['iban', 'bic', 'bank_name'],
  SWIFT: ['bic', 'iban', 'account_number', 'bank_country', 'bank_name'],
  ACH: ['routing_number', 'account_number', 'account_type', 'bank_name'],
  DOMESTIC_WIRE: ['routing_number', 'account_number', 'account_type', 'bank_name'],
  CRYPTO_EXTERNAL: ['chain', 'address'],
  CRYPTO_INTERNAL: ['wallet_uuid'],
}

const REQUIRED: Record<DestinationType, readonly DestinationField[]> = {
  SEPA: ['iban'],
  SWIFT: ['bic', 'bank_country'],
  ACH: ['routing_number', 'account_number', 'account_type'],
  DOMESTIC_WIRE: ['routing_number', 'account_number'],
  CRYPTO_EXTERNAL: ['chain', 'address'],
  CRYPTO_INTERNAL: ['wallet_uuid'],
}

export const isRequired = (type: DestinationType, field: DestinationField) =>
  REQUIRED[type].includes(field)

/** Only these can be cleared by a PATCH (null); the others, once given, stay until deleted. */
const NULLABLE: readonly DestinationField[] = ['label', 'bank_name']

const MAX_LENGTH: Partial<Record<DestinationField, number>> = {
  label: 100,
  bank_name: 200,
  account_number: 64,
}

/** The fields a destination of `type` has, its label last. */
export const fieldsOf = (type: DestinationType | ''): readonly DestinationField[] =>
  type ? [...RAIL_FIELDS[type], 'label'] : []

export const emptyDestination = (): DestinationForm => ({
  type: '',
  iban: '',
  bic: '',
  account_number: '',
  routing_number: '',
  account_type: '',
  bank_name: '',
  bank_country: '',
  chain: '',
  address: '',
  wallet_uuid: '',
  label: '',
})

export function toDestinationForm(destination: Destination): DestinationForm {
  const form = emptyDestination()
  form.type = destination.type
  for (const field of fieldsOf(destination.type)) form[field] = destination[field] ?? ''
  form.iban = groupIban(form.iban)
  return form
}

/**
 * A field's value as sent: the IBAN in electronic format, codes in upper
 * case, numbers without the spaces people group them with, the rest trimmed.
 */
function normalized(field: DestinationField, value: string): string {
  switch (field) {
    case 'iban':
      return electronicIban(value)
    case 'routing_number':
    case 'account_number':
      return value.replace(/\s/g, '')
    case 'bic':
      return value.trim().toUpperCase()
    case 'wallet_uuid':
      return value.trim().toLowerCase()
    default:
      return value.trim()
  }
}

export interface DestinationContext {
  /** The chosen chain's address format, from the catalogue. */
  addressFormat?: string
  /** The destination being edited: what it has cannot be emptied (PATCH cannot clear it). */
  loaded?: DestinationForm
  /** The wallet paying: an internal destination must be another one. */
  walletUuid?: string
}

/**
 * What stops the form being sent: a rail, its required fields, and the cheap
 * checks of bank-checks.ts on what was typed — each one the server makes too.
 */
export function destinationProblems(
  form: DestinationForm,
  context: DestinationContext = {},
): Problems<DestinationInput> {
  const { addressFormat, loaded, walletUuid } = context
  const problems: Problems<DestinationInput> = {}
  if (!form.type) {
    problems.type = 'cp.error.rail'
    return problems
  }
  const required = REQUIRED[form.type]
  const check = (field: DestinationField): MessageKey | undefined => {
    const value = normalized(field, form[field])
    if (!value) {
      if (required.includes(field)) return 'error.required'
      if (loaded?.[field] && !NULLABLE.includes(field)) return 'cp.error.cannotClear'
      return undefined
    }
    if (value.length > (MAX_LENGTH[field] ?? 128)) return 'cp.error.tooLong'
    switch (field) {
      case 'iban': {
        const problem = checkIban(value)
        return problem === 'format'
          ? 'cp.error.ibanFormat'
          : problem === 'checksum'
            ? 'cp.error.ibanChecksum'
            : undefined
      }
      case 'bic':
        return isBic(value) ? undefined : 'cp.error.bic'
      case 'routing_number':
        if (!/^\d{9}$/.test(value)) return 'cp.error.routingFormat'
        return isRoutingNumber(value) ? undefined : 'cp.error.routingChecksum'
      case 'account_number':
        if (form.type === 'SWIFT') {
          return /^[A-Z0-9]{1,34}$/i.test(value) ? undefined : 'cp.error.swiftAccount'
        }
        return isUsAccountNumber(value) ? undefined : 'cp.error.usAccount'
      case 'address':
        return looksLikeAddress(addressFormat, value) ? undefined : 'cp.error.addressShape'
      case 'wallet_uuid':
        if (!isUuid(value)) return 'cp.error.walletId'
        return value === walletUuid?.toLowerCase() ? 'cp.error.sameWallet' : undefined
      default:
        return undefined
    }
  }
  for (const field of fieldsOf(form.type)) {
    const problem = check(field)
    if (problem) problems[field] = problem
  }
  if (form.type === 'SWIFT' && !problems.iban && !problems.account_number) {
    if (!form.iban.trim() && !form.account_number.trim()) {
      problems.account_number = 'cp.error.ibanOrAccount'
    }
  }
  // A BIC's letters 5–6 name its bank's country: a mismatch is a typo in one of the two.
  const bicCountry = normalized('bic', form.bic).slice(4, 6)
  if (form.type === 'SWIFT' && !problems.bic && bicCountry && form.bank_country) {
    if (bicCountry !== form.bank_country) problems.bank_country = 'cp.error.bicCountry'
  }
  return problems
}

/** POST body: the rail and its fields that were given. */
export function createDestinationBody(form: DestinationForm): CreateDestinationBody {
  if (!form.type) throw new Error('A destination needs a rail')
  const body: CreateDestinationBody = { type: form.type }
  for (const field of fieldsOf(form.type)) {
    const value = normalized(field, form[field])
    // Each value is of its field's type: the selects offer only the contract's values.
    if (value) Object.assign(body, { [field]: value })
  }
  return body
}

/**
 * PATCH body: the fields that differ from what was loaded; an emptied label
 * or bank name is sent as null. The rail never changes.
 */
export function destinationChanges(
  before: DestinationForm,
  after: DestinationForm,
): UpdateDestinationBody {
  const patch: UpdateDestinationBody = {}
  for (const field of fieldsOf(after.type)) {
    const value = normalized(field, after[field])
    if (value === normalized(field, before[field])) continue
    if (value) Object.assign(patch, { [field]: value })
    else if (NULLABLE.includes(field)) Object.assign(patch, { [field]: null })
  }
  return patch
}

/** The form input a server pointer (`errors[].field`) stands for. */
export function destinationFieldOf(pointer: string): DestinationInput | undefined {
  const match = /^\/body\/([a-z_]+)$/.exec(pointer)
  const name = match?.[1]
  if (!name) return undefined
  return name in emptyDestination() ? (name as DestinationInput) : undefined
}

/** Our words for a field the server refused. */
export function refusedDestinationMessage(field: DestinationInput): MessageKey {
  switch (field) {
    case 'iban':
      return 'cp.error.iban'
    case 'bic':
      return 'cp.error.bic'
    case 'routing_number':
      return 'cp.error.routingChecksum'
    case 'account_number':
      return 'cp.error.accountNumber'
    case 'bank_country':
      return 'error.field.country'
    case 'chain':
    case 'address':
      return 'cp.error.address'
    case 'wallet_uuid':
      return 'cp.error.wallet'
    default:
      return 'error.field.invalid'
  }
}
