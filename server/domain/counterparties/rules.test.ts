import { describe, expect, it } from 'vitest'
import type { DestinationType } from '../../../contract/counterparties.ts'
import { isKnownCountry } from '../location/countries.ts'
import {
  abaChecksumValid,
  type CounterpartyFields,
  checkCounterparty,
  checkDestination,
  counterpartyName,
  type DestinationFields,
  maskDestination,
} from './rules.ts'

const context = { isKnownCountry }

const fieldsOf = (verdict: { ok: boolean; errors?: { field: string }[] }) =>
  verdict.ok ? [] : (verdict.errors ?? []).map((error) => error.field)

describe('checkCounterparty', () => {
  const individual: CounterpartyFields = {
    type: 'INDIVIDUAL',
    first_name: 'Anna',
    last_name: 'Schmidt',
    legal_name: null,
    email: null,
    phone: null,
    country: 'DE',
    address: null,
  }
  const business: CounterpartyFields = {
    ...individual,
    type: 'BUSINESS',
    first_name: null,
    last_name: null,
    legal_name: 'Acme GmbH',
  }

  it('accepts an individual and a business, trimmed, with the phone in E.164', () => {
    const verdict = checkCounterparty(
      { ...individual, first_name: ' Anna ', email: ' anna@example.com ', phone: '+49 30 901820' },
      context,
    )
    expect(verdict).toEqual({
      ok: true,
      value: { ...individual, email: 'anna@example.com', phone: '+4930901820' },
    })
    expect(checkCounterparty(business, context)).toEqual({ ok: true, value: business })
  })

  it.each([
    ['an individual without a last name', { ...individual, last_name: null }, ['/body/last_name']],
    [
      'an individual without any name',
      { ...individual, first_name: null, last_name: null },
      ['/body/first_name', '/body/last_name'],
    ],
    ['a blank first name', { ...individual, first_name: '   ' }, ['/body/first_name']],
    ['a business without a legal name', { ...business, legal_name: null }, ['/body/legal_name']],
    ['an individual with a legal name', { ...individual, legal_name: 'X' }, ['/body/legal_name']],
    ['a business with a first name', { ...business, first_name: 'Bob' }, ['/body/first_name']],
    ['an unknown country', { ...individual, country: 'QQ' }, ['/body/country']],
    ['a phone that cannot be one', { ...individual, phone: '+1 23' }, ['/body/phone']],
    [
      'an address in an unknown country with a blank city',
      {
        ...individual,
        address: { country: 'QQ', city: ' ', line1: 'Main St 1', postal_code: '10115' },
      },
      ['/body/address/country', '/body/address/city'],
    ],
    [
      'every mistake at once',
      { ...individual, last_name: null, country: 'QQ', phone: 'abc' },
      ['/body/last_name', '/body/country', '/body/phone'],
    ],
  ] as [string, CounterpartyFields, string[]][])('refuses %s', (_name, fields, expected) => {
    expect(fieldsOf(checkCounterparty(fields, context))).toEqual(expected)
  })

  it('names an individual by first and last name, a business by its legal name', () => {
    expect(counterpartyName(individual)).toBe('Anna Schmidt')
    expect(counterpartyName(business)).toBe('Acme GmbH')
  })
})

describe('abaChecksumValid', () => {
  it.each([
    ['021000021', true],
    ['011000015', true],
    ['121000358', true],
    ['021000022', false],
    ['12345678', false],
    ['0210000210', false],
  ])('%s → %s', (digits, valid) => {
    expect(abaChecksumValid(digits)).toBe(valid)
  })
})

type Valid = [
  name: string,
  type: DestinationType,
  given: Partial<DestinationFields>,
  stored: Partial<DestinationFields>,
]
type Invalid = [
  name: string,
  type: DestinationType,
  given: Partial<DestinationFields>,
  fields: string[],
]

const EVM = '0x52908400098527886E0F7030069857D2E4169EE7'
const BTC = 'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4'
const TRON = 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t'
const SOLANA = 'HAgk14JpMQLgt6rVgv7cBQFJWFto5Dqxi472uT3DKpqk'
const WALLET = '0190f5a4-0000-7000-8000-000000000001'

describe('checkDestination accepts', () => {
  const cases: Valid[] = [
    [
      'a German IBAN',
      'SEPA',
      { iban: 'DE89370400440532013000' },
      { iban: 'DE89370400440532013000' },
    ],
    [
      'an IBAN typed in groups and lower case, with a BIC',
      'SEPA',
      { iban: 'gb29 nwbk 6016 1331 9268 19', bic: 'nwbkgb2l', bank_name: ' NatWest ' },
      { iban: 'GB29NWBK60161331926819', bic: 'NWBKGB2L', bank_name: 'NatWest' },
    ],
    [
      'a French IBAN with letters in the account and an 11-character BIC',
      'SEPA',
      { iban: 'FR1420041010050500013M02606', bic: 'BNPAFRPPXXX', label: ' Rent ' },
      { iban: 'FR1420041010050500013M02606', bic: 'BNPAFRPPXXX', label: 'Rent' },
    ],
    [
      'a SWIFT account number with the BIC’s country',
      'SWIFT',
      { bic: 'DEUTDEFF', account_number: '0532 0130 00', bank_country: 'de' },
      { bic: 'DEUTDEFF', account_number: '0532013000', bank_country: 'DE' },
    ],
    [
      'a SWIFT IBAN outside SEPA',
      'SWIFT',
      { bic: 'NWBKGB2L', iban: 'TR330006100519786457841326', bank_country: 'GB' },
      { bic: 'NWBKGB2L', iban: 'TR330006100519786457841326', bank_country: 'GB' },
    ],
    [
      'an ACH account, spaces stripped',
      'ACH',
      { routing_number: '021 000 021', account_number: '1234 5678 9', account_type: 'checking' },
      { routing_number: '021000021', account_number: '123456789', account_type: 'checking' },
    ],
    [
      'a domestic wire without an account type',
      'DOMESTIC_WIRE',
      { routing_number: '011000015', account_number: '0001234' },
      { routing_number: '011000015', account_number: '0001234' },
    ],
    [
      'an Ethereum address, checksummed',
      'CRYPTO_EXTERNAL',
      { chain: 'ethereum', address: EVM.toLowerCase() },
      { chain: 'ethereum', address: EVM },
    ],
    [
      'a Bitcoin address, lower-cased',
      'CRYPTO_EXTERNAL',
      { chain: 'bitcoin', address: BTC.toUpperCase() },
      { chain: 'bitcoin', address: BTC },
    ],
    [
      'a Tron address',
      'CRYPTO_EXTERNAL',
      { chain: 'tron', address: TRON },
      { chain: 'tron', address: TRON },
    ],
    [
      'a Solana address',
      'CRYPTO_EXTERNAL',
      { chain: 'solana', address: SOLANA },
      { chain: 'solana', address: SOLANA },
    ],
    ['a wallet', 'CRYPTO_INTERNAL', { wallet_uuid: WALLET }, { wallet_uuid: WALLET }],
    [
      'an emptied label as none',
      'CRYPTO_INTERNAL',
      { wallet_uuid: WALLET, label: '  ' },
      { wallet_uuid: WALLET },
    ],
  ]

  it.each(cases)('%s', (_name, type, given, stored) => {
    const verdict = checkDestination(type, given, context)
    expect(verdict.ok ? verdict.value : verdict.errors).toEqual({
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
      ...stored,
    })
  })
})

describe('checkDestination refuses', () => {
  const cases: Invalid[] = [
    ['SEPA without an IBAN', 'SEPA', { bic: 'DEUTDEFF' }, ['/body/iban']],
    ['an IBAN with wrong check digits', 'SEPA', { iban: 'DE89370400440532013001' }, ['/body/iban']],
    ['an IBAN of the wrong length', 'SEPA', { iban: 'DE8937040044053201300' }, ['/body/iban']],
    ['an IBAN of no country', 'SEPA', { iban: 'XX89370400440532013000' }, ['/body/iban']],
    ['a non-SEPA IBAN on SEPA', 'SEPA', { iban: 'TR330006100519786457841326' }, ['/body/iban']],
    ['a Swiss QR-IBAN', 'SEPA', { iban: 'CH4431999123000889012' }, ['/body/iban']],
    ['a malformed BIC', 'SEPA', { iban: 'DE89370400440532013000', bic: 'DEUT12FF' }, ['/body/bic']],
    ['a test BIC', 'SEPA', { iban: 'DE89370400440532013000', bic: 'DEUTDEF0' }, ['/body/bic']],
    [
      'fields of other rails on SEPA, each named',
      'SEPA',
      { iban: 'DE89370400440532013000', routing_number: '021000021', chain: 'bitcoin' },
      ['/body/routing_number', '/body/chain'],
    ],
    [
      'SWIFT without BIC, bank country or account',
      'SWIFT',
      {},
      ['/body/bic', '/body/account_number', '/body/bank_country'],
    ],
    [
      'a SWIFT bank country other than the BIC’s',
      'SWIFT',
      { bic: 'DEUTDEFF', account_number: '12345', bank_country: 'FR' },
      ['/body/bank_country'],
    ],
    [
      'an unknown SWIFT bank country',
      'SWIFT',
      { bic: 'DEUTDEFF', account_number: '12345', bank_country: 'QQ' },
      ['/body/bank_country'],
    ],
    [
      'a SWIFT account number with punctuation',
      'SWIFT',
      { bic: 'DEUTDEFF', account_number: '12-34/5', bank_country: 'DE' },
      ['/body/account_number'],
    ],
    [
      'a routing number failing the ABA checksum',
      'ACH',
      { routing_number: '021000022', account_number: '123456789', account_type: 'checking' },
      ['/body/routing_number'],
    ],
    [
      'a routing number of 8 digits',
      'ACH',
      { routing_number: '02100002', account_number: '123456789', account_type: 'savings' },
      ['/body/routing_number'],
    ],
    [
      'an all-zero routing number (checksum holds, no bank)',
      'ACH',
      { routing_number: '000000000', account_number: '123456789', account_type: 'savings' },
      ['/body/routing_number'],
    ],
    [
      'an ACH account number too short, and no account type',
      'ACH',
      { routing_number: '021000021', account_number: '123' },
      ['/body/account_number', '/body/account_type'],
    ],
    [
      'an IBAN on ACH',
      'ACH',
      {
        routing_number: '021000021',
        account_number: '123456789',
        account_type: 'checking',
        iban: 'DE89370400440532013000',
      },
      ['/body/iban'],
    ],
    [
      'a domestic wire account with letters',
      'DOMESTIC_WIRE',
      { routing_number: '021000021', account_number: '12345X' },
      ['/body/account_number'],
    ],
    [
      'a crypto address with a typo in its checksum',
      'CRYPTO_EXTERNAL',
      { chain: 'bitcoin', address: 'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t5' },
      ['/body/address'],
    ],
    [
      'an Ethereum address on Tron',
      'CRYPTO_EXTERNAL',
      { chain: 'tron', address: EVM },
      ['/body/address'],
    ],
    ['a crypto destination without a chain', 'CRYPTO_EXTERNAL', { address: BTC }, ['/body/chain']],
    [
      'a wallet on an external crypto destination',
      'CRYPTO_EXTERNAL',
      { chain: 'bitcoin', address: BTC, wallet_uuid: WALLET },
      ['/body/wallet_uuid'],
    ],
    ['an internal destination without a wallet', 'CRYPTO_INTERNAL', {}, ['/body/wallet_uuid']],
    [
      'an address on an internal destination',
      'CRYPTO_INTERNAL',
      { wallet_uuid: WALLET, address: BTC },
      ['/body/address'],
    ],
  ]

  it.each(cases)('%s', (_name, type, given, fields) => {
    expect(fieldsOf(checkDestination(type, given, context))).toEqual(fields)
  })
})

describe('maskDestination', () => {
  const none = { iban: null, account_number: null, address: null, wallet_uuid: null }
  it.each([
    ['SEPA', { iban: 'DE89370400440532013000' }, 'DE89 … 3000'],
    ['SWIFT', { account_number: '0532013000', iban: null }, '••3000'],
    ['ACH', { account_number: '123456789' }, '••6789'],
    ['DOMESTIC_WIRE', { account_number: '0001234' }, '••1234'],
    ['CRYPTO_EXTERNAL', { address: BTC }, 'bc1q…f3t4'],
    ['CRYPTO_EXTERNAL', { address: EVM }, '0x5290…9EE7'],
    ['CRYPTO_INTERNAL', { wallet_uuid: WALLET }, '0190f5a4…0001'],
  ] as [DestinationType, Partial<DestinationFields>, string][])(
    '%s %j → %s',
    (type, fields, shown) => {
      expect(maskDestination(type, { ...none, ...fields })).toBe(shown)
    },
  )
})
