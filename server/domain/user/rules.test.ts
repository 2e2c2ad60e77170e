import { describe, expect, it } from 'vitest'
import type { Address, UserDataPatch } from '../../../contract/user.ts'
import { ageOn, checkUserDataPatch, countryAccepted, type FieldError } from './rules.ts'

const TODAY = '2026-03-01'
const context = {
  today: TODAY,
  isKnownCountry: (code: string) => ['GB', 'RU', 'US'].includes(code),
}

const address = (overrides: Partial<Address> = {}): Address => ({
  country: 'GB',
  city: 'London',
  line1: '12 Baker Street',
  postal_code: 'NW1 6XE',
  ...overrides,
})

const error = (field: string, message: RegExp) => ({
  field: `/body/${field}`,
  message: expect.stringMatching(message),
})

describe('checkUserDataPatch accepts', () => {
  const cases: Array<[string, UserDataPatch, UserDataPatch]> = [
    ['a single name', { first_name: 'Ada' }, { first_name: 'Ada' }],
    [
      'names, trimmed',
      { first_name: '  Ada ', last_name: '\tLovelace\n' },
      { first_name: 'Ada', last_name: 'Lovelace' },
    ],
    [
      'null to clear any field',
      { first_name: null, date_of_birth: null, address: null, language: null },
      { first_name: null, date_of_birth: null, address: null, language: null },
    ],
    [
      'someone who turns 18 today',
      { date_of_birth: '2008-03-01' },
      { date_of_birth: '2008-03-01' },
    ],
    [
      'someone a day short of 121',
      { date_of_birth: '1905-03-02' },
      { date_of_birth: '1905-03-02' },
    ],
    [
      'a known country, lines trimmed',
      { address: address({ city: ' London ' }) },
      { address: address() },
    ],
    [
      'optional lines emptied to null, absent ones left absent',
      { address: address({ line2: '   ', state: null }) },
      { address: address({ line2: null, state: null }) },
    ],
    ['a language', { language: 'ru' }, { language: 'ru' }],
  ]

  it.each(cases)('%s', (_name, patch, changes) => {
    expect(checkUserDataPatch(patch, context)).toEqual({ ok: true, changes })
  })
})

describe('checkUserDataPatch refuses', () => {
  const cases: Array<[string, UserDataPatch, FieldError[]]> = [
    ['a blank first name', { first_name: '   ' }, [error('first_name', /blank/)]],
    ['a blank last name', { last_name: ' ' }, [error('last_name', /blank/)]],
    [
      'a birth date in the future',
      { date_of_birth: '2026-03-02' },
      [error('date_of_birth', /future/)],
    ],
    [
      'someone who turns 18 tomorrow',
      { date_of_birth: '2008-03-02' },
      [error('date_of_birth', /18/)],
    ],
    [
      'someone who turns 121 today',
      { date_of_birth: '1905-03-01' },
      [error('date_of_birth', /120/)],
    ],
    ['a date before 1900', { date_of_birth: '1899-12-31' }, [error('date_of_birth', /120/)]],
    [
      'a country we do not know',
      { address: address({ country: 'ZZ' }) },
      [error('address/country', /known country/)],
    ],
    [
      'blank required address lines, each by name',
      { address: address({ city: ' ', line1: ' ', postal_code: ' ' }) },
      [
        error('address/city', /blank/),
        error('address/line1', /blank/),
        error('address/postal_code', /blank/),
      ],
    ],
    [
      'every bad field at once',
      { first_name: ' ', date_of_birth: '2030-01-01', address: address({ country: 'XX' }) },
      [
        error('first_name', /blank/),
        error('date_of_birth', /future/),
        error('address/country', /known/),
      ],
    ],
  ]

  it.each(cases)('%s', (_name, patch, errors) => {
    expect(checkUserDataPatch(patch, context)).toEqual({ ok: false, errors })
  })
})

describe('ageOn', () => {
  const cases: Array<[string, string, string, number]> = [
    ['on the birthday the year counts', '2000-03-01', '2026-03-01', 26],
    ['the day before the birthday it does not', '2000-03-02', '2026-03-01', 25],
    ['born on the day: zero', '2026-03-01', '2026-03-01', 0],
    ['a leap-day birthday counts on 1 March in a common year', '2008-02-29', '2026-03-01', 18],
    ['…and not on 28 February', '2008-02-29', '2026-02-28', 17],
    ['a leap-day birthday counts on the day in a leap year', '2008-02-29', '2028-02-29', 20],
  ]

  it.each(cases)('%s', (_name, birthDate, today, age) => {
    expect(ageOn(birthDate, today)).toBe(age)
  })
})

describe('countryAccepted', () => {
  const cases: Array<[string, string, string[] | null, string | undefined, boolean]> = [
    ['a served country', 'GB', ['FR', 'GB'], undefined, true],
    ['a country not served', 'US', ['FR', 'GB'], undefined, false],
    ['a country not served, another one saved', 'US', ['FR', 'GB'], 'DE', false],
    ['the saved country the tenant no longer serves', 'DE', ['FR', 'GB'], 'DE', true],
    ['no list: every country', 'US', null, undefined, true],
    ['an empty list: every country', 'US', [], undefined, true],
  ]

  it.each(cases)('%s', (_name, country, supported, saved, accepted) => {
    expect(countryAccepted(country, supported, saved)).toBe(accepted)
  })
})
