import { describe, expect, it } from 'vitest'
import type { DisputeOutcome, DisputeStatus } from '../../../contract/card-disputes.ts'
import { creditedAtOnce, type Decision, decide } from './rules.ts'

describe('a dispute’s decision', () => {
  const cases: [DisputeStatus, boolean, DisputeOutcome, Decision][] = [
    ['SUBMITTED', false, 'under_review', { ok: true, status: 'UNDER_REVIEW', money: 'none' }],
    ['SUBMITTED', true, 'under_review', { ok: true, status: 'UNDER_REVIEW', money: 'none' }],
    ['UNDER_REVIEW', true, 'under_review', { ok: false, status: 'UNDER_REVIEW' }],
    ['SUBMITTED', false, 'won', { ok: true, status: 'WON', money: 'credit' }],
    ['UNDER_REVIEW', true, 'won', { ok: true, status: 'WON', money: 'confirm' }],
    ['UNDER_REVIEW', false, 'lost', { ok: true, status: 'LOST', money: 'none' }],
    ['SUBMITTED', true, 'lost', { ok: true, status: 'LOST', money: 'reverse' }],
    ['WON', true, 'lost', { ok: false, status: 'WON' }],
    ['LOST', false, 'won', { ok: false, status: 'LOST' }],
    ['LOST', false, 'under_review', { ok: false, status: 'LOST' }],
  ]
  it.each(cases)('%s (credited %s) + %s', (status, credited, outcome, expected) => {
    expect(decide({ status, credited }, outcome)).toEqual(expected)
  })

  it('only a fraud claim is credited at once', () => {
    expect(creditedAtOnce('fraud')).toBe(true)
    for (const reason of ['not_received', 'duplicate', 'wrong_amount', 'other'] as const) {
      expect(creditedAtOnce(reason)).toBe(false)
    }
  })
})
