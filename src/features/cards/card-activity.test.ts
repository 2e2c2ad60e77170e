import { describe, expect, it } from 'vitest'
import type { CardTransaction } from '../../../contract/card-transactions.ts'
import { groupCardActivity, type Purchase } from './card-activity.ts'
import { aCardTransaction } from './test-builders.ts'

const auth = (id: string, at: string, overrides: Partial<CardTransaction> = {}) =>
  aCardTransaction({ id, type: 'AUTHORIZATION', status: 'APPROVED', created_at: at, ...overrides })
const follow = (
  id: string,
  type: CardTransaction['type'],
  authorization: string,
  at: string,
  overrides: Partial<CardTransaction> = {},
) =>
  aCardTransaction({
    id,
    type,
    status: 'SETTLED',
    authorization_id: authorization,
    created_at: at,
    ...overrides,
  })

const T1 = '2026-03-01T10:00:00Z'
const T2 = '2026-03-02T10:00:00Z'
const T3 = '2026-03-03T10:00:00Z'
const T4 = '2026-03-04T10:00:00Z'

const purchase = (rows: ReturnType<typeof groupCardActivity>, index = 0) => {
  const row = rows[index]
  if (row?.kind !== 'purchase') throw new Error(`row ${index} is not a purchase`)
  return row
}

describe('groupCardActivity', () => {
  const cases: {
    name: string
    records: CardTransaction[]
    expected: Partial<Purchase>
  }[] = [
    {
      name: 'an open authorisation is pending',
      records: [auth('a1', T1)],
      expected: { state: 'pending', amount: '25.00', authorizedAmount: undefined },
    },
    {
      name: 'an authorisation and its clearing for the same amount are one completed purchase',
      records: [follow('c1', 'CLEARING', 'a1', T2), auth('a1', T1, { status: 'SETTLED' })],
      expected: { state: 'completed', amount: '25.00', authorizedAmount: undefined, at: T2 },
    },
    {
      name: 'a clearing for less headlines the cleared amount, the authorised one beside it',
      records: [
        follow('c1', 'CLEARING', 'a1', T2, { amount: '20.5' }),
        auth('a1', T1, { status: 'SETTLED' }),
      ],
      expected: { state: 'completed', amount: '20.5', authorizedAmount: '25.00' },
    },
    {
      name: 'the same amount written differently is not a different cleared amount',
      records: [
        follow('c1', 'CLEARING', 'a1', T2, { amount: '25' }),
        auth('a1', T1, { status: 'SETTLED' }),
      ],
      expected: { state: 'completed', amount: '25', authorizedAmount: undefined },
    },
    {
      name: 'an authorisation and its reversal are one reversed purchase',
      records: [follow('r1', 'REVERSAL', 'a1', T2), auth('a1', T1, { status: 'REVERSED' })],
      expected: { state: 'reversed' },
    },
    {
      name: 'a declined authorisation is declined',
      records: [
        auth('a1', T1, {
          status: 'DECLINED',
          decline_reason: 'LIMIT_EXCEEDED',
          exceeded_limit: 'daily',
        }),
      ],
      expected: { state: 'declined' },
    },
    {
      name: 'the clearing outranks an authorisation status read before it happened',
      records: [follow('c1', 'CLEARING', 'a1', T2), auth('a1', T1, { status: 'APPROVED' })],
      expected: { state: 'completed' },
    },
    {
      name: 'a clearing whose authorisation is on a page not loaded yet is still a purchase',
      records: [follow('c1', 'CLEARING', 'a1', T2, { amount: '9.99' })],
      expected: { state: 'completed', authorization: undefined, amount: '9.99', key: 'a1' },
    },
  ]

  it.each(cases)('$name', ({ records, expected }) => {
    const rows = groupCardActivity(records)
    expect(rows).toHaveLength(1)
    expect(purchase(rows)).toMatchObject(expected)
  })

  it('puts refunds under their purchase, oldest first, and moves it to the latest activity', () => {
    const rows = groupCardActivity([
      follow('f2', 'REFUND', 'a1', T4, { amount: '5.00' }),
      auth('b1', T3, { merchant: { name: 'Cafe', mcc: '5814', city: 'Oslo', country: 'NO' } }),
      follow('f1', 'REFUND', 'a1', T3, { amount: '3.00' }),
      follow('c1', 'CLEARING', 'a1', T2),
      auth('a1', T1, { status: 'SETTLED' }),
    ])
    expect(rows.map((row) => row.key)).toEqual(['a1', 'b1'])
    expect(purchase(rows).refunds.map((refund) => refund.id)).toEqual(['f1', 'f2'])
    expect(purchase(rows).state).toBe('completed')
    expect(purchase(rows, 1).merchant?.name).toBe('Cafe')
  })

  it('keeps fees, deposits and withdrawals as rows of their own, in place', () => {
    const rows = groupCardActivity([
      aCardTransaction({ id: 'fee', type: 'FEE', created_at: T4 }),
      follow('c1', 'CLEARING', 'a1', T3),
      aCardTransaction({ id: 'dep', type: 'DEPOSIT', created_at: T2 }),
      auth('a1', T1),
      aCardTransaction({ id: 'wd', type: 'WITHDRAWAL', created_at: T1 }),
    ])
    expect(rows.map((row) => [row.kind, row.key])).toEqual([
      ['movement', 'fee'],
      ['purchase', 'a1'],
      ['movement', 'dep'],
      ['movement', 'wd'],
    ])
  })

  it('counts a record that two pages both hold once', () => {
    const fee = aCardTransaction({ id: 'fee', type: 'FEE', created_at: T2 })
    const rows = groupCardActivity([fee, auth('a1', T1), fee, auth('a1', T1)])
    expect(rows.map((row) => row.key)).toEqual(['fee', 'a1'])
  })

  it('takes the merchant from a later record when the first has none', () => {
    const merchant = { name: 'Shop', mcc: '5411', city: 'Riga', country: 'LV' }
    const rows = groupCardActivity([
      follow('c1', 'CLEARING', 'a1', T2, { merchant }),
      auth('a1', T1, { merchant: null }),
    ])
    expect(purchase(rows).merchant).toEqual(merchant)
  })
})
