import { describe, expect, it } from 'vitest'
import {
  changes,
  counterpartyProblems,
  createBody,
  emptyCounterparty,
  fieldOfPointer,
  toForm,
} from './counterparty-form.ts'
import { aCounterparty } from './test-builders.ts'

describe('what a counterparty needs', () => {
  it('a person: first and last name and a country', () => {
    expect(counterpartyProblems(emptyCounterparty('INDIVIDUAL'), '')).toEqual({
      first_name: 'error.required',
      last_name: 'error.required',
      country: 'cp.error.country',
    })
  })

  it('a business: its legal name and a country', () => {
    expect(counterpartyProblems(emptyCounterparty('BUSINESS'), '')).toEqual({
      legal_name: 'error.required',
      country: 'cp.error.country',
    })
  })

  it('an e-mail and a phone only when given, and an address whole or not at all', () => {
    const form = {
      ...emptyCounterparty('BUSINESS'),
      legal_name: 'Acme',
      country: 'DE',
      email: 'not-an-email',
      city: 'Berlin',
    }
    expect(counterpartyProblems(form, '12')).toEqual({
      email: 'error.emailInvalid',
      phone: 'error.field.phone',
      line1: 'error.required',
      postal_code: 'error.required',
    })
  })
})

describe('what is sent', () => {
  it("creates with the type's names only, the address in the counterparty's country", () => {
    const form = {
      ...emptyCounterparty('BUSINESS'),
      first_name: 'left over from the other type',
      legal_name: ' Acme GmbH ',
      country: 'DE',
      line1: 'Unter den Linden 1',
      city: 'Berlin',
      postal_code: '10117',
    }
    expect(createBody(form)).toEqual({
      type: 'BUSINESS',
      legal_name: 'Acme GmbH',
      country: 'DE',
      address: {
        country: 'DE',
        line1: 'Unter den Linden 1',
        line2: null,
        city: 'Berlin',
        postal_code: '10117',
        state: null,
      },
    })
  })

  it('patches what changed, clears an emptied e-mail, and compares phones by digits', () => {
    const loaded = toForm(aCounterparty({ phone: '447911123456' }))
    expect(loaded.phone).toBe('+447911123456')
    expect(changes(loaded, { ...loaded, phone: '+44 7911 123456' })).toEqual({})
    expect(changes(loaded, { ...loaded, email: ' ', last_name: 'Byron' })).toEqual({
      last_name: 'Byron',
      email: null,
    })
  })

  it('moves the address with a new country', () => {
    const loaded = toForm(
      aCounterparty({
        address: { country: 'GB', line1: '12 Square', city: 'London', postal_code: 'SW1' },
      }),
    )
    expect(changes(loaded, { ...loaded, country: 'IE' }).address?.country).toBe('IE')
  })
})

it('maps the pointers the server names to fields', () => {
  expect(fieldOfPointer('/body/legal_name')).toBe('legal_name')
  expect(fieldOfPointer('/body/address/postal_code')).toBe('postal_code')
  expect(fieldOfPointer('/body/address/country')).toBe('country')
  expect(fieldOfPointer('/body/address')).toBe('line1')
  expect(fieldOfPointer('/body/type')).toBeUndefined()
})
