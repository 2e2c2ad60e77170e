import { describe, expect, it } from 'vitest'
import type { ProblemCode } from '../../../contract/problem-codes.ts'
import { ApiError } from '../../net/api.ts'
import {
  addressFaults,
  cleanAddress,
  type DeliveryAddress,
  serverAddressFaults,
} from './delivery.ts'

const address = (overrides: Partial<DeliveryAddress> = {}): DeliveryAddress => ({
  recipient_name: 'Ada Lovelace',
  line1: '12 Square',
  line2: '',
  city: 'London',
  postal_code: 'SW1Y 4JH',
  country: 'GB',
  ...overrides,
})

const refusal = (code: ProblemCode, fields: string[] = []) =>
  new ApiError(422, {
    type: 'about:blank',
    title: 'Unprocessable Content',
    status: 422,
    code,
    errors: fields.map((field) => ({ field, message: 'Bad.' })),
  })

describe('addressFaults', () => {
  it.each([
    ['a full address', address(), {}],
    [
      'blank required fields',
      address({ recipient_name: '  ', city: '' }),
      {
        recipient_name: 'required',
        city: 'required',
      },
    ],
    ['no country', address({ country: '' }), { country: 'required' }],
    ['a city over 60 characters', address({ city: 'x'.repeat(61) }), { city: 'tooLong' }],
    [
      'a postal code with a symbol',
      address({ postal_code: 'SW1Y#4JH' }),
      {
        postal_code: 'postalCodeFormat',
      },
    ],
    [
      'a postal code starting with a dash',
      address({ postal_code: '-123' }),
      {
        postal_code: 'postalCodeFormat',
      },
    ],
    ['an empty second line, which is optional', address({ line2: '   ' }), {}],
  ])('%s', (_name, value, expected) => {
    expect(addressFaults(value)).toEqual(expected)
  })
})

describe('cleanAddress', () => {
  it('trims every line and leaves out an empty second line', () => {
    expect(cleanAddress(address({ line1: ' 12 Square ', line2: ' ' }))).toEqual({
      recipient_name: 'Ada Lovelace',
      line1: '12 Square',
      city: 'London',
      postal_code: 'SW1Y 4JH',
      country: 'GB',
    })
    expect(cleanAddress(address({ line2: ' Flat 3 ' })).line2).toBe('Flat 3')
  })
})

describe('serverAddressFaults', () => {
  it.each([
    [
      'the fields a 422 names',
      refusal('INVALID_DELIVERY_ADDRESS', [
        '/body/delivery_address/city',
        '/body/delivery_address/country',
        '/body/nick_name',
      ]),
      ['city', 'country'],
    ],
    [
      'every required field when the address is missing',
      refusal('DELIVERY_ADDRESS_REQUIRED', ['/body/delivery_address']),
      ['recipient_name', 'line1', 'city', 'postal_code', 'country'],
    ],
    ['nothing for another refusal', refusal('INSUFFICIENT_FUNDS', ['/body/wallet_uuid']), []],
    ['nothing for a network failure', new TypeError('fetch failed'), []],
  ])('%s', (_name, error, expected) => {
    expect(serverAddressFaults(error)).toEqual(expected)
  })
})
