import { describe, expect, it } from 'vitest'
import { accountLast4, plainDecimal, programRefusal } from './rules.ts'

describe('card program rules', () => {
  it.each([
    ['an active program', { status: 'ACTIVE' as const }, undefined],
    ['an archived program', { status: 'ARCHIVED' as const }, 'PROGRAM_ARCHIVED'],
    ['no program of the tenant', undefined, 'PROGRAM_NOT_FOUND'],
  ])('%s: %s', (_name, program, refusal) => {
    expect(programRefusal(program)).toBe(refusal)
  })

  it.each([
    ['1.000', '1'],
    ['0.500', '0.5'],
    ['0.000', '0'],
    ['12.125', '12.125'],
    ['10.000', '10'],
    ['2', '2'],
  ])('the percentage %s reads %s', (numeric, plain) => {
    expect(plainDecimal(numeric)).toBe(plain)
  })
})

describe('an account’s last four digits', () => {
  it('are four digits, the same every time, and differ between accounts opened together', () => {
    // v7 ids of one millisecond share their first digits: the hash, not the id, decides.
    const ids = Array.from(
      { length: 50 },
      (_, i) => `0190f5a4-0000-7000-8000-${String(i).padStart(12, '0')}`,
    )
    const lasts = ids.map(accountLast4)
    expect(lasts.every((last) => /^\d{4}$/.test(last))).toBe(true)
    expect(ids.map(accountLast4)).toEqual(lasts)
    expect(new Set(lasts).size).toBeGreaterThan(45)
  })
})
