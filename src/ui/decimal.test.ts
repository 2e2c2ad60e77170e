import { describe, expect, it } from 'vitest'
import {
  add,
  compare,
  divideHalfEven,
  multiply,
  parseDecimal,
  roundHalfEven,
  ZERO,
} from './decimal.ts'

describe('exact decimals', () => {
  it.each([
    ['12.50', 1250n, 2],
    ['0', 0n, 0],
    ['0.000000000000000001', 1n, 18],
    ['-3.1', -31n, 1],
    ['7.', 7n, 0],
    ['12345678901234567890.123456789', 12345678901234567890123456789n, 9],
  ])('parses %s', (text, units, scale) => {
    expect(parseDecimal(text)).toEqual({ units, scale })
  })

  it.each(['', 'abc', '1e5', '1,5', '.5', 'NaN'])('refuses "%s"', (text) => {
    expect(() => parseDecimal(text)).toThrow(RangeError)
  })

  it.each([
    // amount, rate, rounded to 2 places
    ['1', '97342.18', '97342.18'],
    ['0.1', '0.2', '0.02'],
    ['0.000000000000000001', '3412.56', '0.00'],
    ['2.5', '1.00', '2.50'],
    ['0.005', '1', '0.00'], // a tie goes to the even neighbour: 0.00
    ['0.015', '1', '0.02'], // …and here 0.02
    ['0.025', '1', '0.02'],
    ['0.0251', '1', '0.03'],
    ['-0.015', '1', '-0.02'],
    ['-0.001', '1', '0.00'], // no "-0.00"
    ['12345678901234.123456', '0.92302012', '11395310020898.59'],
  ])('%s × %s = %s', (amount, rate, expected) => {
    expect(roundHalfEven(multiply(parseDecimal(amount), parseDecimal(rate)), 2)).toBe(expected)
  })

  it('adds at the larger scale, without rounding', () => {
    const sum = ['0.1', '0.2', '0.000000000000000001'].map(parseDecimal).reduce(add, ZERO)
    expect(sum).toEqual({ units: 300000000000000001n, scale: 18 })
    expect(roundHalfEven(sum, 2)).toBe('0.30')
    expect(roundHalfEven(parseDecimal('5'), 2)).toBe('5.00')
  })
})

describe('divide', () => {
  it.each([
    // a, b, places, a ÷ b
    ['48671.385', '1.0834', 2, '44924.67'], // 44924.6677…
    ['100', '3', 2, '33.33'],
    ['200', '3', 2, '66.67'],
    ['0.125', '1', 2, '0.12'], // a tie goes to the even neighbour
    ['0.135', '1', 2, '0.14'],
    ['1', '8', 2, '0.12'], // 0.125: the tie again, from a division
    ['-1', '8', 2, '-0.12'],
    ['1', '-8', 2, '-0.12'],
    ['-0.001', '3', 2, '0.00'], // no "-0.00"
    ['0.000000000000000001', '0.00000001', 8, '0.00000000'],
    ['97342.18', '1.27190000', 8, '76532.88780565'],
  ] as const)('%s ÷ %s to %i places = %s', (a, b, places, expected) => {
    expect(divideHalfEven(parseDecimal(a), parseDecimal(b), places)).toBe(expected)
  })

  it('refuses to divide by zero', () => {
    expect(() => divideHalfEven(parseDecimal('1'), parseDecimal('0.00'), 2)).toThrow(RangeError)
  })
})

describe('compare', () => {
  it.each([
    ['12.50', '12.5', 0],
    ['0.000000000000000001', '0', 1],
    ['99.99', '100', -1],
    ['-1', '0.5', -1],
    ['1000000000000000000000.01', '1000000000000000000000', 1],
  ] as const)('%s against %s is %i', (a, b, expected) => {
    expect(compare(parseDecimal(a), parseDecimal(b))).toBe(expected)
  })
})
