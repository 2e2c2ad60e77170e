import { describe, expect, it } from 'vitest'
import { browserRegion, defaultCountry, type LocalCountry } from './countries.ts'

const country = (code: string): LocalCountry => ({
  code,
  name: code,
  localName: code,
  dial_codes: ['1'],
  flag: '',
})

describe('the country a phone starts with', () => {
  it.each([
    [['en-US'], 'US'],
    [['en-GB', 'en'], 'GB'],
    [['ru'], 'RU'],
    [['de'], 'DE'],
    [['not a tag', 'fr-CA'], 'CA'],
    [[], undefined],
  ])('%j is in %s', (locales, region) => {
    expect(browserRegion(locales)).toBe(region)
  })

  it('is the browser’s region when listed, else the first of the list', () => {
    const list = [country('AT'), country('RU'), country('US')]
    expect(defaultCountry(list, 'RU')?.code).toBe('RU')
    expect(defaultCountry(list, 'JP')?.code).toBe('AT')
  })
})
