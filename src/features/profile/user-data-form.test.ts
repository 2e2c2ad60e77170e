import { describe, expect, it } from 'vitest'
import { someUserData as userData } from '../../../tests/support/builders.ts'
import { changes, type DetailsForm, missingAddressFields, toForm } from './user-data-form.ts'

const loaded = toForm(userData(), 'en')
const edit = (patch: Partial<DetailsForm>) => changes(loaded, { ...loaded, ...patch })

describe('changes', () => {
  it.each([
    ['nothing', {}, {}],
    ['a name', { first_name: 'Augusta' }, { first_name: 'Augusta' }],
    ['a name, trimmed', { first_name: '  Augusta ' }, { first_name: 'Augusta' }],
    ['only spaces added', { first_name: ' Ada ' }, {}],
    ['an emptied name clears it', { last_name: '' }, { last_name: null }],
    ['the birth date', { date_of_birth: '1991-01-01' }, { date_of_birth: '1991-01-01' }],
    ['the language', { language: 'ru' }, { language: 'ru' }],
    [
      'one address line sends the whole address',
      { city: 'Bath' },
      {
        address: {
          country: 'GB',
          city: 'Bath',
          line1: '12 Square',
          line2: null,
          postal_code: 'SW1Y 4JH',
          state: null,
        },
      },
    ],
    [
      'an emptied address clears it',
      { country: '', city: '', line1: '', postal_code: '' },
      { address: null },
    ],
  ] as const)('%s', (_, patch, expected) => {
    expect(edit(patch)).toEqual(expected)
  })

  it('takes a language never chosen as the one in use, so it is not a change', () => {
    const form = toForm(userData({ language: null }), 'ru')
    expect(form.language).toBe('ru')
    expect(changes(form, form)).toEqual({})
  })
})

describe('missingAddressFields', () => {
  it('asks for the required parts of an address being given, not of an empty one', () => {
    expect(missingAddressFields({ ...loaded, city: '', postal_code: ' ' })).toEqual([
      'city',
      'postal_code',
    ])
    const empty = toForm(userData({ address: null }), 'en')
    expect(missingAddressFields(empty)).toEqual([])
    expect(missingAddressFields({ ...empty, line2: 'Flat 2' })).toEqual([
      'country',
      'city',
      'line1',
      'postal_code',
    ])
  })
})
