import { describe, expect, it } from 'vitest'
import { normalisePhone } from './phone.ts'

describe('normalisePhone', () => {
  const samePerson: Array<[string, string, string]> = [
    ['international format with brackets and dashes', '+1 (415) 555-2671', '14155552671'],
    ['E.164', '+14155552671', '14155552671'],
    ['digits with the country code and no "+"', '14155552671', '14155552671'],
    ['dots as separators', '1.415.555.2671', '14155552671'],
    ['surrounding spaces', '  +1 415 555 2671 \t', '14155552671'],
    ['a Russian mobile as typed', '+7 (912) 345-67-89', '79123456789'],
    ['a Russian mobile as digits', '79123456789', '79123456789'],
    ['a London number', '+44 20 7946 0958', '442079460958'],
    ['"00" as the international prefix', '0044 20 7946 0958', '442079460958'],
    ['a German mobile', '+49 151 12345678', '4915112345678'],
  ]
  it.each(samePerson)('%s is kept as its digits', (_name, input, digits) => {
    expect(normalisePhone(input)).toBe(digits)
  })

  it('"+1 (415) 555-2671", "+14155552671" and "14155552671" are the same person', () => {
    const forms = ['+1 (415) 555-2671', '+14155552671', '14155552671']
    expect(new Set(forms.map(normalisePhone))).toEqual(new Set(['14155552671']))
  })

  const notPhones: Array<[string, string]> = [
    ['too short to be a number', '123'],
    ['an empty string', ''],
    ['only separators', '+ () -'],
    ['letters', 'not a phone'],
    ['a vanity number with letters', '+1 415 CALL NOW'],
    ['a number inside other text', 'call +14155552671'],
    ['a "+" in the middle', '1+4155552671'],
    ['a country code that does not exist', '+999 123 456 789'],
    ['a national number without its country code', '(415) 555-2671'],
    ['too many digits for the country', '+1 415 555 26711'],
    ['zeros', '00000000'],
  ]
  it.each(notPhones)('%s is not a phone number', (_name, input) => {
    expect(normalisePhone(input)).toBeUndefined()
  })

  it('normalising the digits again gives the same digits', () => {
    for (const [, input] of samePerson) {
      const digits = normalisePhone(input)!
      expect(normalisePhone(digits)).toBe(digits)
    }
  })
})
