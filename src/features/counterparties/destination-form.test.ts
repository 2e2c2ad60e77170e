import { describe, expect, it } from 'vitest'
import {
  createDestinationBody,
  type DestinationForm,
  destinationChanges,
  destinationFieldOf,
  destinationProblems,
  emptyDestination,
  toDestinationForm,
} from './destination-form.ts'
import { aDestination, CP_WALLET } from './test-builders.ts'

const form = (overrides: Partial<DestinationForm>): DestinationForm => ({
  ...emptyDestination(),
  ...overrides,
})

describe('what each rail needs before it is sent', () => {
  it.each([
    ['no rail', form({}), { type: 'cp.error.rail' }],
    ['SEPA without an IBAN', form({ type: 'SEPA' }), { iban: 'error.required' }],
    [
      'SEPA with a mistyped IBAN',
      form({ type: 'SEPA', iban: 'DE89 3704 0044 0532 0130 01' }),
      {
        iban: 'cp.error.ibanChecksum',
      },
    ],
    [
      'SEPA with a bad BIC',
      form({ type: 'SEPA', iban: 'DE89370400440532013000', bic: 'DEUT' }),
      {
        bic: 'cp.error.bic',
      },
    ],
    [
      'SEPA, complete',
      form({ type: 'SEPA', iban: 'DE89 3704 0044 0532 0130 00', bic: 'deutdeff' }),
      {},
    ],
    [
      'SWIFT with nothing',
      form({ type: 'SWIFT' }),
      {
        bic: 'error.required',
        bank_country: 'error.required',
        account_number: 'cp.error.ibanOrAccount',
      },
    ],
    [
      'SWIFT with an account number',
      form({
        type: 'SWIFT',
        bic: 'CHASUS33',
        account_number: 'ACC0012 3456',
        bank_country: 'US',
      }),
      {},
    ],
    [
      'SWIFT with a dash in the account and the BIC of another country',
      form({
        type: 'SWIFT',
        bic: 'CHASUS33',
        account_number: 'ACC-0012',
        bank_country: 'GB',
      }),
      { account_number: 'cp.error.swiftAccount', bank_country: 'cp.error.bicCountry' },
    ],
    [
      'ACH with a mistyped routing number',
      form({
        type: 'ACH',
        routing_number: '021000022',
        account_number: '12345678',
        account_type: 'checking',
      }),
      { routing_number: 'cp.error.routingChecksum' },
    ],
    [
      'ACH with a short routing number and no type',
      form({
        type: 'ACH',
        routing_number: '02100002',
        account_number: '12',
      }),
      {
        routing_number: 'cp.error.routingFormat',
        account_number: 'cp.error.usAccount',
        account_type: 'error.required',
      },
    ],
    [
      'a domestic wire, complete, its numbers grouped',
      form({
        type: 'DOMESTIC_WIRE',
        routing_number: '0210 0002 1',
        account_number: '1234 5678',
      }),
      {},
    ],
    [
      'crypto without a network',
      form({ type: 'CRYPTO_EXTERNAL', address: '0xabc' }),
      {
        chain: 'error.required',
      },
    ],
    [
      'an internal wallet that is no uuid',
      form({ type: 'CRYPTO_INTERNAL', wallet_uuid: 'abc' }),
      {
        wallet_uuid: 'cp.error.walletId',
      },
    ],
  ] as const)('%s', (_, input, expected) => {
    expect(destinationProblems(input)).toEqual(expected)
  })

  it("checks a crypto address against the chosen network's format", () => {
    const evm = form({
      type: 'CRYPTO_EXTERNAL',
      chain: 'ethereum',
      address: 'TJCnKsPa7y5okkXvQAidZBzqx3QyQ6sxMW',
    })
    expect(destinationProblems(evm, { addressFormat: 'evm' })).toEqual({
      address: 'cp.error.addressShape',
    })
    expect(destinationProblems(evm, { addressFormat: 'tron' })).toEqual({})
  })

  it('refuses the paying wallet as an internal destination', () => {
    const own = form({ type: 'CRYPTO_INTERNAL', wallet_uuid: CP_WALLET.toUpperCase() })
    expect(destinationProblems(own, { walletUuid: CP_WALLET })).toEqual({
      wallet_uuid: 'cp.error.sameWallet',
    })
  })

  it('keeps a saved BIC from being emptied: the API cannot clear it, only a label or bank name', () => {
    const loaded = toDestinationForm(aDestination({ bic: 'DEUTDEFF', bank_name: 'Deutsche Bank' }))
    const edited = { ...loaded, bic: '', bank_name: '' }
    expect(destinationProblems(edited, { loaded })).toEqual({ bic: 'cp.error.cannotClear' })
  })
})

describe('what is sent', () => {
  it("sends only the rail's fields that were given, normalised", () => {
    const typed = form({
      type: 'SEPA',
      iban: 'de89 3704 0044 0532 0130 00',
      bic: ' deutdeff ',
      routing_number: '021000021',
      label: '  Main  ',
    })
    expect(createDestinationBody(typed)).toEqual({
      type: 'SEPA',
      iban: 'DE89370400440532013000',
      bic: 'DEUTDEFF',
      label: 'Main',
    })
  })

  it('patches only what changed and clears an emptied label with null', () => {
    const loaded = toDestinationForm(aDestination({ label: 'Main', bank_name: 'Deutsche Bank' }))
    expect(loaded.iban).toBe('DE89 3704 0044 0532 0130 00')
    expect(destinationChanges(loaded, { ...loaded, iban: 'DE89370400440532013000' })).toEqual({})
    expect(
      destinationChanges(loaded, { ...loaded, label: '', bank_name: 'Deutsche Bank AG' }),
    ).toEqual({ label: null, bank_name: 'Deutsche Bank AG' })
  })
})

it('maps the pointers the server names to fields', () => {
  expect(destinationFieldOf('/body/iban')).toBe('iban')
  expect(destinationFieldOf('/body/type')).toBe('type')
  expect(destinationFieldOf('/body/unknown')).toBeUndefined()
  expect(destinationFieldOf('/params/wallet_id')).toBeUndefined()
})
