import { afterEach, describe, expect, it } from 'vitest'
import { latinDigits } from '../../i18n/digits.ts'
import { readAmount } from './amount-input.ts'

describe('reading a typed amount', () => {
  it.each([
    ['12.5', 2, 'en', '12.5'],
    ['1,000', 2, 'en', '1000'],
    ['1,234,567.89', 2, 'en', '1234567.89'],
    [' 1 234.50 ', 2, 'en', '1234.5'],
    ['12,5', 2, 'ru', '12.5'],
    ['1 234,56', 2, 'ru', '1234.56'],
    ['1\u00a0234,56', 2, 'ru', '1234.56'],
    ['12.5', 2, 'ru', '12.5'],
    ['007.10', 2, 'en', '7.1'],
    ['.5', 2, 'en', '0.5'],
    ['12.', 2, 'en', '12'],
    ['0.000000000000000001', 18, 'en', '0.000000000000000001'],
    ['3.000', 0, 'en', '3'],
    // Thousands in a currency of many decimals, where nothing else can be meant.
    ['1,234,567', 8, 'en', '1234567'],
    ['1,234.5', 8, 'en', '1234.5'],
    ['1,234', 2, 'en', '1234'],
    // Russian keeps its decimal comma, whatever the currency's decimals.
    ['0,001', 8, 'ru', '0.001'],
    ['1,234', 8, 'ru', '1.234'],
    ['0,500', 2, 'ru', '0.5'],
    // Where a dot groups thousands and a comma marks decimals.
    ['1.000', 2, 'id', '1000'],
    ['1.234.567,89', 2, 'de', '1234567.89'],
    ['12,5', 2, 'pt-BR', '12.5'],
    ['0,001', 8, 'tr', '0.001'],
    ['1.234,5', 8, 'es', '1234.5'],
    // Persian and Arabic digits, and the Arabic decimal and thousands marks.
    ['۱۲٫۵', 2, 'fa', '12.5'],
    ['۱٬۲۳۴', 2, 'fa', '1234'],
    ['١٢,٥', 2, 'fa', '12.5'],
    ['١٢٫٥٠', 2, 'ar', '12.5'],
  ])('"%s" at %i decimals in %s is %s', (text, decimals, language, amount) => {
    expect(readAmount(text, decimals, language)).toEqual({ ok: true, amount })
  })

  it.each([
    ['', 2, 'en', 'empty'],
    ['   ', 2, 'en', 'empty'],
    ['abc', 2, 'en', 'format'],
    ['1e5', 2, 'en', 'format'],
    ['-5', 2, 'en', 'format'],
    ['.', 2, 'en', 'format'],
    ['1,5.2', 2, 'ru', 'format'],
    ['1,2,3', 2, 'ru', 'format'],
    ['1,2,3', 2, 'en', 'format'],
    ['12,34.5', 2, 'en', 'format'],
    ['1'.repeat(31), 2, 'en', 'format'],
    ['0', 2, 'en', 'zero'],
    ['0.00', 2, 'en', 'zero'],
    ['1.005', 2, 'en', 'decimals'],
    ['0.5', 0, 'en', 'decimals'],
  ])('refuses "%s" at %i decimals in %s: %s', (text, decimals, language, problem) => {
    expect(readAmount(text, decimals, language)).toEqual({ ok: false, problem })
  })

  // An English comma is a thousands separator, never a guessed decimal point:
  // a group cannot start with 0, and a short group is not a group.
  it.each([
    ['0,001', 8, '0.001'],
    ['0,500', 2, '0.500'],
    ['0,5', 2, '0.5'],
    ['1,5', 2, '1.5'],
    ['1,00', 2, '1.00'],
    [',5', 2, '.5'],
    ['12,3456', 8, '12.3456'],
  ])(
    'refuses the English decimal comma of "%s" at %i decimals, suggesting %s',
    (text, decimals, suggestion) => {
      expect(readAmount(text, decimals, 'en')).toEqual({
        ok: false,
        problem: 'separator',
        suggestion,
      })
    },
  )

  // The same rule where the dot groups: "1.5" in German is someone's decimal point.
  it.each([
    ['1.5', 'de', '1,5'],
    ['0.001', 'id', '0,001'],
    ['12.50', 'pt-BR', '12,50'],
  ])('refuses the decimal point of "%s" in %s, suggesting %s', (text, language, suggestion) => {
    expect(readAmount(text, 8, language)).toEqual({ ok: false, problem: 'separator', suggestion })
  })

  it.each([
    ['1,234', 8, '1.234', '1234'],
    ['12,500', 3, '12.500', '12500'],
    ['999,999', 18, '999.999', '999999'],
    ['1.234', 8, '1,234', '1234', 'de'],
  ])(
    'asks which "%s" means at %i decimals: %s or %s',
    (text, decimals, decimal, whole, language = 'en') => {
      expect(readAmount(text, decimals, language)).toEqual({
        ok: false,
        problem: 'ambiguous',
        text,
        decimal,
        whole,
      })
    },
  )
})

describe('reading an amount with Latin digits chosen (issue 34)', () => {
  afterEach(() => latinDigits.set(false))

  it.each([
    // What the screen now shows: Latin digits with Latin marks, "1,234.5".
    ['1,234.5', 2, 'fa', '1234.5'],
    ['1,234,567', 2, 'fa', '1234567'],
    ['12.5', 2, 'fa', '12.5'],
    // The person's own digits still read, whatever is chosen.
    ['۱۲٫۵', 2, 'fa', '12.5'],
    ['۱٬۲۳۴', 2, 'fa', '1234'],
    ['١٢٫٥٠', 2, 'ar', '12.5'],
  ])('"%s" at %i decimals in %s is %s', (text, decimals, language, amount) => {
    latinDigits.set(true)
    expect(readAmount(text, decimals, language)).toEqual({ ok: true, amount })
  })

  it('asks which "1,234" means where the screen groups thousands with a comma', () => {
    latinDigits.set(true)
    expect(readAmount('1,234', 8, 'fa')).toEqual({
      ok: false,
      problem: 'ambiguous',
      text: '1,234',
      decimal: '1.234',
      whole: '1234',
    })
  })
})
