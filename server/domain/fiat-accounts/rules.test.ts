import { describe, expect, it } from 'vitest'
import { DEMO_TENANT_ID } from '../../../contract/tenancy.ts'
import {
  accountLast4,
  DEFAULT_PROGRAMS,
  defaultProgramId,
  plainDecimal,
  programRefusal,
} from './rules.ts'

const TENANT_A = DEMO_TENANT_ID
const TENANT_B = '0190f5a4-0000-7000-8000-000000000001'

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

  it('a default program has one id per tenant, the same at every call', () => {
    const a = defaultProgramId(TENANT_A, 'eur-prepaid')
    expect(defaultProgramId(TENANT_A, 'eur-prepaid')).toBe(a)
    expect(a).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/)
    expect(defaultProgramId(TENANT_B, 'eur-prepaid')).not.toBe(a)
    expect(defaultProgramId(TENANT_A, 'eur-balance')).not.toBe(a)
  })

  it('the defaults: distinct keys and BINs, both sub-account types active, one archived', () => {
    expect(new Set(DEFAULT_PROGRAMS.map((p) => p.key)).size).toBe(DEFAULT_PROGRAMS.length)
    expect(new Set(DEFAULT_PROGRAMS.map((p) => p.bin)).size).toBe(DEFAULT_PROGRAMS.length)
    const active = DEFAULT_PROGRAMS.filter((p) => p.status === 'ACTIVE')
    expect(new Set(active.map((p) => p.subAccountType))).toEqual(new Set(['prepaid', 'balance']))
    expect(DEFAULT_PROGRAMS.filter((p) => p.status === 'ARCHIVED')).toHaveLength(1)
    for (const program of DEFAULT_PROGRAMS) expect(program.bin).toMatch(/^[0-9]{6,8}$/)
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
