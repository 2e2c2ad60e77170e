import { describe, expect, it } from 'vitest'
import { KYC_STATUSES } from '../../../contract/enums.ts'
import { ORDER_TYPES } from '../../../contract/orders.ts'
import {
  canRetry,
  isStale,
  orderNeedsKyc,
  sandboxRuling,
  submissionRefusal,
  tokenRefusal,
} from './rules.ts'

describe('what each KYC status allows', () => {
  const table = {
    UNVERIFIED: { retry: true, submit: undefined, token: undefined },
    PENDING: { retry: false, submit: 'KYC_IN_REVIEW', token: undefined },
    HOLD: { retry: false, submit: 'KYC_IN_REVIEW', token: undefined },
    APPROVED: { retry: false, submit: 'KYC_ALREADY_APPROVED', token: 'KYC_ALREADY_APPROVED' },
    SOFT_REJECT: { retry: true, submit: undefined, token: undefined },
    DECLINED: { retry: true, submit: undefined, token: undefined },
    REJECT: { retry: false, submit: 'KYC_FINAL', token: 'KYC_FINAL' },
    DOUBLE: { retry: false, submit: 'KYC_FINAL', token: 'KYC_FINAL' },
  } as const

  it('the table covers every status of docs/product.md §4', () => {
    expect(Object.keys(table).sort()).toEqual([...KYC_STATUSES].sort())
  })

  it.each(KYC_STATUSES)('%s', (status) => {
    expect(canRetry(status)).toBe(table[status].retry)
    expect(submissionRefusal(status)).toBe(table[status].submit)
    expect(tokenRefusal(status)).toBe(table[status].token)
  })
})

describe('which orders need a verified identity', () => {
  it.each(ORDER_TYPES)('%s', (type) => {
    const gated = [
      'DEPOSIT_FIAT_SEPA',
      'DEPOSIT_FIAT_SWIFT',
      'WITHDRAWAL_FIAT_SEPA',
      'WITHDRAWAL_CRYPTO',
    ].includes(type)
    expect(orderNeedsKyc(type)).toBe(gated)
  })
})

describe('the sandbox’s rules', () => {
  it.each([
    ['Ada', 'Lovelace', 'APPROVED'],
    ['Reject', 'Me', 'DECLINED'],
    ['Ada', 'Rejected', 'DECLINED'],
    ['Ada', 'von REJECTION', 'DECLINED'],
    ['Rej', 'Ect', 'APPROVED'],
  ])('%s %s → %s', (firstName, lastName, status) => {
    const ruling = sandboxRuling({ firstName, lastName })
    expect(ruling.status).toBe(status)
    expect(ruling.reason !== undefined).toBe(status === 'DECLINED')
  })
})

describe('out-of-order provider events', () => {
  const at = (iso: string) => new Date(iso)
  it('an event older than the last applied one is stale; a newer or equal one, or one without a time, is not', () => {
    expect(isStale(at('2024-01-01T10:00:00Z'), at('2024-01-01T10:00:01Z'))).toBe(true)
    expect(isStale(at('2024-01-01T10:00:01Z'), at('2024-01-01T10:00:00Z'))).toBe(false)
    expect(isStale(at('2024-01-01T10:00:00Z'), at('2024-01-01T10:00:00Z'))).toBe(false)
    expect(isStale(undefined, at('2024-01-01T10:00:00Z'))).toBe(false)
    expect(isStale(at('2024-01-01T10:00:00Z'), undefined)).toBe(false)
  })
})
