import { describe, expect, it } from 'vitest'
import { internationalPhone } from './phone.ts'

describe('internationalPhone', () => {
  it.each([
    ['1', '(415) 555-2671', 'US', '+14155552671'],
    ['1', '415.555.2671', 'US', '+14155552671'],
    ['1', '1 415 555 2671', 'US', '+14155552671'],
    ['44', '07911 123456', 'GB', '+447911123456'],
    ['39', '06 1234 5678', 'IT', '+390612345678'],
    ['7', '8 (912) 345-67-89', 'RU', '+79123456789'],
    ['7', '912 345 67 89', 'RU', '+79123456789'],
    ['49', '+44 7911 123456', 'DE', '+447911123456'],
  ])('+%s and "%s" (%s) is %s', (dial, national, country, expected) => {
    expect(internationalPhone(dial, national, country)).toBe(expected)
  })
})
