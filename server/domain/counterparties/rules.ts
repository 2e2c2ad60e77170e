import {
  electronicFormatIBAN,
  extractBIC,
  isSEPACountry,
  ValidationErrorsIBAN,
  validateIBAN,
} from 'ibantools'
import type { ChainId } from '../../../contract/catalog.ts'
import type {
  BankAccountType,
  CounterpartyType,
  DestinationType,
} from '../../../contract/counterparties.ts'
import { normaliseName } from '../../../contract/names.ts'
import type { Address } from '../../../contract/user.ts'
import { validateAddress } from '../addresses/validate.ts'
import { normalisePhone } from '../otp/phone.ts'
import { checkUserDataPatch, type FieldError } from '../user/rules.ts'

/**
 * What a counterparty and a payout destination must satisfy beyond their
 * schemas (contract/counterparties.ts). Pure: the caller passes the list of
 * known countries; whether an internal destination's wallet exists is the
 * service's question. Every check returns all the fields at fault at once,
 * named as JSON pointers into the request body, so a form shows every mistake.
 */

export type { FieldError }

export type Verdict<T> = { ok: true; value: T } | { ok: false; errors: FieldError[] }

export interface CountryContext {
  isKnownCountry: (code: string) => boolean
}

const at = (field: string, message: string): FieldError => ({ field: `/body/${field}`, message })

/** Trimmed, and null when nothing is left: an emptied optional text field is cleared. */
const optionalText = (value: string | null | undefined) => value?.trim() || null
/** A name or label as kept (contract/names.ts); null when nothing visible is left. */
const optionalName = (value: string | null | undefined) => (value && normaliseName(value)) || null

// ---------------------------------------------------------------------------
// Counterparties

export interface CounterpartyFields {
  type: CounterpartyType
  first_name: string | null
  last_name: string | null
  legal_name: string | null
  email: string | null
  phone: string | null
  country: string
  address: Address | null
}

/** The names each type uses; the other type's names must stay empty. */
const NAMES: Record<CounterpartyType, readonly (keyof CounterpartyFields)[]> = {
  INDIVIDUAL: ['first_name', 'last_name'],
  BUSINESS: ['legal_name'],
}

/**
 * Checks a whole counterparty — a new one, or a stored one with a PATCH laid
 * over it — and returns it normalised: names and e-mail trimmed, the phone as
 * `+` and its E.164 digits, the address by the profile's own rules.
 */
export function checkCounterparty(
  fields: CounterpartyFields,
  context: CountryContext,
): Verdict<CounterpartyFields> {
  const errors: FieldError[] = []
  const value: CounterpartyFields = {
    ...fields,
    first_name: fields.first_name == null ? null : normaliseName(fields.first_name),
    last_name: fields.last_name == null ? null : normaliseName(fields.last_name),
    legal_name: fields.legal_name == null ? null : normaliseName(fields.legal_name),
    email: optionalText(fields.email),
  }

  const other = fields.type === 'INDIVIDUAL' ? 'BUSINESS' : 'INDIVIDUAL'
  for (const name of NAMES[fields.type]) {
    if (value[name] === null) errors.push(at(name, `is required for a ${fields.type} counterparty`))
    else if (value[name] === '') errors.push(at(name, 'must not be blank'))
  }
  for (const name of NAMES[other]) {
    if (fields[name] != null) {
      errors.push(at(name, `is not used for a ${fields.type} counterparty`))
    }
  }

  if (!context.isKnownCountry(fields.country)) errors.push(at('country', 'is not a known country'))

  if (fields.phone != null) {
    const digits = normalisePhone(fields.phone)
    if (digits) value.phone = `+${digits}`
    else errors.push(at('phone', 'is not a phone number (write it with its country code)'))
  }

  if (fields.address) {
    // The profile's address rules word for word (known country, required lines
    // not blank, lines trimmed). Only the address is passed, so no date is read.
    const verdict = checkUserDataPatch({ address: fields.address }, { today: '', ...context })
    if (verdict.ok) value.address = verdict.changes.address ?? null
    else errors.push(...verdict.errors)
  }

  return errors.length > 0 ? { ok: false, errors } : { ok: true, value }
}

/** What to show for a counterparty: the legal name, or first and last name joined. */
export function counterpartyName(
  fields: Pick<CounterpartyFields, 'type' | 'first_name' | 'last_name' | 'legal_name'>,
): string {
  if (fields.type === 'BUSINESS') return fields.legal_name ?? ''
  return [fields.first_name, fields.last_name].filter(Boolean).join(' ')
}

// ---------------------------------------------------------------------------
// Destinations

/** A destination's fields under their request names; what a rail does not use is null. */
export interface DestinationFields {
  label: string | null
  iban: string | null
  bic: string | null
  account_number: string | null
  routing_number: string | null
  account_type: BankAccountType | null
  bank_name: string | null
  bank_country: string | null
  chain: ChainId | null
  address: string | null
  wallet_uuid: string | null
}

type Field = keyof DestinationFields
/** The fields whose checks return a normalised spelling. */
type TextField = 'iban' | 'bic' | 'routing_number' | 'account_number' | 'address'

const EMPTY_DESTINATION: Readonly<DestinationFields> = Object.freeze({
  label: null,
  iban: null,
  bic: null,
  account_number: null,
  routing_number: null,
  account_type: null,
  bank_name: null,
  bank_country: null,
  chain: null,
  address: null,
  wallet_uuid: null,
})

export const DESTINATION_FIELDS = Object.keys(EMPTY_DESTINATION) as readonly Field[]

/**
 * The table on `Destination` (contract/counterparties.ts) as data. SWIFT also
 * needs one of account_number and iban (both may be given: PATCH cannot clear
 * either, so switching from one to the other must not be refused). `label`
 * belongs to every rail.
 */
export const RAILS: Record<DestinationType, { required: Field[]; optional: Field[] }> = {
  SEPA: { required: ['iban'], optional: ['bic', 'bank_name'] },
  SWIFT: { required: ['bic', 'bank_country'], optional: ['account_number', 'iban', 'bank_name'] },
  ACH: { required: ['routing_number', 'account_number', 'account_type'], optional: ['bank_name'] },
  DOMESTIC_WIRE: {
    required: ['routing_number', 'account_number'],
    optional: ['account_type', 'bank_name'],
  },
  CRYPTO_EXTERNAL: { required: ['chain', 'address'], optional: [] },
  CRYPTO_INTERNAL: { required: ['wallet_uuid'], optional: [] },
}

/**
 * Checks a whole destination of rail `type` — a new one, or a stored one with
 * a PATCH laid over it — and returns it normalised: IBAN in electronic format,
 * BIC and bank country upper case, spaces gone from routing and account
 * numbers, a crypto address in its chain's canonical spelling, every field the
 * rail does not use null. Fields of another rail are refused, not dropped: a
 * person who typed an IBAN on an ACH form should hear about it.
 */
export function checkDestination(
  type: DestinationType,
  fields: Partial<DestinationFields>,
  context: CountryContext,
): Verdict<DestinationFields> {
  const errors: FieldError[] = []
  const fail = (field: Field, message: string) => errors.push(at(field, message))
  const rail = RAILS[type]
  const uses = new Set<Field>(['label', ...rail.required, ...rail.optional])
  const value: DestinationFields = { ...EMPTY_DESTINATION, label: optionalName(fields.label) }

  for (const field of DESTINATION_FIELDS) {
    if (!uses.has(field) && fields[field] != null) {
      fail(field, `is not used by ${type} destinations`)
    }
  }
  for (const field of rail.required) {
    if (fields[field] == null) fail(field, `is required for ${type} destinations`)
  }
  if (type === 'SWIFT' && fields.account_number == null && fields.iban == null) {
    fail('account_number', 'an account number or an IBAN is required for SWIFT destinations')
  }

  const given = (field: Field) => uses.has(field) && fields[field] != null
  const check = (field: Field & TextField, outcome: Checked) => {
    if ('error' in outcome) fail(field, outcome.error)
    else value[field] = outcome.value
  }

  if (given('iban')) check('iban', checkIban(fields.iban!, { sepaOnly: type === 'SEPA' }))
  if (given('bic')) check('bic', checkBic(fields.bic!))
  if (given('routing_number')) check('routing_number', checkRoutingNumber(fields.routing_number!))
  if (given('account_number')) {
    const international = type === 'SWIFT'
    check('account_number', checkAccountNumber(fields.account_number!, { international }))
  }
  if (given('account_type')) value.account_type = fields.account_type!
  if (given('bank_name')) value.bank_name = optionalName(fields.bank_name)
  if (given('bank_country')) {
    const country = fields.bank_country!.trim().toUpperCase()
    if (!context.isKnownCountry(country)) {
      fail('bank_country', 'is not a known country')
    } else {
      value.bank_country = country
      // A BIC's letters 5–6 are its bank's country: a mismatch is a typo in one of them.
      const bicCountry = value.bic?.slice(4, 6)
      if (bicCountry && bicCountry !== country) {
        fail('bank_country', `must be the BIC's country (${bicCountry})`)
      }
    }
  }
  if (given('chain') && given('address')) {
    const outcome = validateAddress(fields.chain!, fields.address!)
    value.chain = fields.chain!
    check('address', outcome.ok ? { value: outcome.normalized } : { error: outcome.reason })
  }
  if (given('wallet_uuid')) value.wallet_uuid = fields.wallet_uuid!.toLowerCase()

  // In the order of the fields (a form's order), whichever check found them.
  const rank = (error: FieldError) =>
    DESTINATION_FIELDS.indexOf(error.field.replace('/body/', '') as Field)
  errors.sort((a, b) => rank(a) - rank(b))
  return errors.length > 0 ? { ok: false, errors } : { ok: true, value }
}

type Checked = { value: string } | { error: string }

const IBAN_PROBLEMS: Record<ValidationErrorsIBAN, string> = {
  [ValidationErrorsIBAN.NoIBANProvided]: 'is empty',
  [ValidationErrorsIBAN.NoIBANCountry]: 'does not start with a known IBAN country code',
  [ValidationErrorsIBAN.WrongBBANLength]: 'has the wrong length for its country',
  [ValidationErrorsIBAN.WrongBBANFormat]: 'has the wrong format for its country',
  [ValidationErrorsIBAN.ChecksumNotNumber]: 'must have two digits after the country code',
  [ValidationErrorsIBAN.WrongIBANChecksum]: 'check digits do not match: a character was mistyped',
  [ValidationErrorsIBAN.WrongAccountBankBranchChecksum]:
    'the national check digits do not match: a character was mistyped',
  [ValidationErrorsIBAN.QRIBANNotAllowed]: 'is a QR-IBAN, which only takes QR-bill payments',
}

/** An IBAN by ibantools; a SEPA destination's must be of a SEPA country. */
export function checkIban(text: string, options: { sepaOnly: boolean }): Checked {
  const iban = electronicFormatIBAN(text.trim()) ?? ''
  const result = validateIBAN(iban, { allowQRIBAN: false })
  if (!result.valid) {
    const code = result.errorCodes[0]
    return { error: code === undefined ? 'is not a valid IBAN' : IBAN_PROBLEMS[code] }
  }
  if (options.sepaOnly && !isSEPACountry(iban.slice(0, 2))) {
    return { error: `is of ${iban.slice(0, 2)}, outside the SEPA area: pay it by SWIFT` }
  }
  return { value: iban }
}

/** A BIC (ISO 9362) by ibantools, 8 or 11 characters, upper case; test BICs are refused. */
export function checkBic(text: string): Checked {
  const bic = text.replace(/\s/g, '').toUpperCase()
  const parsed = extractBIC(bic)
  if (!parsed.valid) {
    return {
      error: 'is not a BIC: 4 letters (bank), 2 (country), 2 (location), optional 3 (branch)',
    }
  }
  // A '0' as the second location character marks a test-and-training BIC: no real bank.
  if (parsed.testBIC) return { error: 'is a test BIC, which no payment reaches' }
  return { value: bic }
}

/**
 * The first two digits of an ABA routing number that name a Federal Reserve
 * district for a bank (01–12), a thrift (21–32) or an electronic-only
 * institution (61–72); 00 (government) and 80 (traveller's cheques) are no account.
 */
const ABA_PREFIX = /^(0[1-9]|1[0-2]|2[1-9]|3[0-2]|6[1-9]|7[0-2])/

/** `3·d1 + 7·d2 + 1·d3 + 3·d4 + … + 1·d9` is a multiple of ten for a real routing number. */
export function abaChecksumValid(digits: string): boolean {
  if (!/^\d{9}$/.test(digits)) return false
  const weights = [3, 7, 1]
  let sum = 0
  for (let i = 0; i < 9; i++) sum += Number(digits[i]) * weights[i % 3]!
  return sum % 10 === 0
}

/** A US ABA routing number: 9 digits, a Federal Reserve prefix and the checksum. */
export function checkRoutingNumber(text: string): Checked {
  const digits = text.replace(/\s/g, '')
  if (!/^\d{9}$/.test(digits)) return { error: 'must be 9 digits' }
  if (!ABA_PREFIX.test(digits)) return { error: 'does not start with a Federal Reserve prefix' }
  if (!abaChecksumValid(digits)) return { error: 'checksum does not match: a digit was mistyped' }
  return { value: digits }
}

/**
 * A bank account number, spaces removed. A US account (ACH, domestic wire)
 * is 4 to 17 digits; an international one (SWIFT) up to 34 letters and
 * digits, the longest an IBAN or a SWIFT account field holds.
 */
export function checkAccountNumber(text: string, options: { international: boolean }): Checked {
  const account = text.replace(/\s/g, '')
  if (options.international) {
    const upper = account.toUpperCase()
    return /^[A-Z0-9]{1,34}$/.test(upper)
      ? { value: upper }
      : { error: 'must be 1 to 34 letters and digits' }
  }
  return /^\d{4,17}$/.test(account) ? { value: account } : { error: 'must be 4 to 17 digits' }
}

// ---------------------------------------------------------------------------
// Display

const shorten = (text: string, head: number, tail = 4) =>
  text.length <= head + tail + 1 ? text : `${text.slice(0, head)}…${text.slice(-tail)}`

/**
 * A short, safe summary of a destination for lists and order targets: never
 * a whole account number. "DE89 … 3000", "••6819", "bc1q…f3k9", "0x52a3…9f1c".
 */
export function maskDestination(
  type: DestinationType,
  fields: Pick<DestinationFields, 'iban' | 'account_number' | 'address' | 'wallet_uuid'>,
): string {
  switch (type) {
    case 'SEPA':
    case 'SWIFT':
      if (fields.iban) return `${fields.iban.slice(0, 4)} … ${fields.iban.slice(-4)}`
      return `••${(fields.account_number ?? '').slice(-4)}`
    case 'ACH':
    case 'DOMESTIC_WIRE':
      return `••${(fields.account_number ?? '').slice(-4)}`
    case 'CRYPTO_EXTERNAL': {
      const address = fields.address ?? ''
      return shorten(address, address.startsWith('0x') ? 6 : 4)
    }
    case 'CRYPTO_INTERNAL':
      return shorten(fields.wallet_uuid ?? '', 8)
  }
}
