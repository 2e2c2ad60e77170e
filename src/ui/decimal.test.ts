import { describe, expect, it } from 'vitest'
import { add, compare, multiply, parseDecimal, roundHalfEven, ZERO } from './decimal.ts'

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
