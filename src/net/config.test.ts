import { describe, expect, it } from 'vitest'
import { flag, isFalsy } from './config.ts'

describe('isFalsy (docs/product.md §5)', () => {
  it.each([
    ['the string "false"', 'false'],
    ['the string "0"', '0'],
    ['the empty string', ''],
    ['the string "FALSE"', 'FALSE'],
    ['boolean false', false],
    ['null', null],
    ['undefined', undefined],
    ['NaN', Number.NaN],
    ['the number 0', 0],
    ['negative zero', -0],
  ])('treats %s as false', (_, value) => {
    expect(isFalsy(value)).toBe(true)
  })

  it.each([
    ['the string "true"', 'true'],
    ['the string "1"', '1'],
    ['the string "False" (only "false" and "FALSE" are listed)', 'False'],
    ['the string "no"', 'no'],
    ['a space', ' '],
    ['the string "NaN"', 'NaN'],
    ['boolean true', true],
    ['the number 1', 1],
    ['a negative number', -1],
    ['Infinity', Number.POSITIVE_INFINITY],
    ['an empty object', {}],
    ['an empty array', []],
  ])('treats %s as true', (_, value) => {
    expect(isFalsy(value)).toBe(false)
  })
})

describe('flag', () => {
  it('is the fallback while the variable is unset', () => {
    expect(flag(undefined, true)).toBe(true)
    expect(flag(undefined, false)).toBe(false)
  })

  it.each(['false', '0', '', 'FALSE'])('is off when set to %j', (value) => {
    expect(flag(value, true)).toBe(false)
  })

  it.each(['true', '1', 'yes'])('is on when set to %j', (value) => {
    expect(flag(value, false)).toBe(true)
  })
})
