import { describe, expect, it } from 'vitest'
import { DEMO_TENANT_ID } from '../../../contract/tenancy.ts'
import { DEFAULT_PROGRAMS, defaultProgramId } from './default-programs.ts'

const TENANT_A = DEMO_TENANT_ID
const TENANT_B = '0190f5a4-0000-7000-8000-000000000001'

describe('the default card programs', () => {
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
