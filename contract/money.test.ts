import { describe, expect, it } from 'vitest'
import { AmountError, fromMinor, toMinor } from './money.ts'

describe('toMinor', () => {
  it.each([
    ['12.50', 2, 1250n],
    ['12.5', 2, 1250n],
    ['12', 2, 1200n],
    ['0.00000001', 8, 1n],
    ['1.230000', 2, 123n],
    ['-3.10', 2, -310n],
    ['123456789012345678.123456789012345678', 18, 123456789012345678123456789012345678n],
  ] as const)('%s at %i decimals is %s', (amount, decimals, minor) => {
    expect(toMinor(amount, decimals)).toBe(minor)
  })

  it.each([['1.234'], ['abc'], ['1e5'], [''], ['1.'], ['.5'], ['1,50']])(
    'refuses %j at 2 decimals',
    (amount) => {
      expect(() => toMinor(amount, 2)).toThrow(AmountError)
    },
  )
})

describe('fromMinor', () => {
  it.each([
    [1250n, 2, '12.50'],
    [1n, 8, '0.00000001'],
    [0n, 2, '0.00'],
    [-310n, 2, '-3.10'],
    [42n, 0, '42'],
  ] as const)('%s at %i decimals is %s', (minor, decimals, amount) => {
    expect(fromMinor(minor, decimals)).toBe(amount)
  })

  it('round-trips with toMinor', () => {
    for (const decimals of [0, 2, 6, 8, 18]) {
      for (const minor of [0n, 1n, 999n, 10n ** 20n + 7n, -55n]) {
        expect(toMinor(fromMinor(minor, decimals), decimals)).toBe(minor)
      }
    }
  })
})
