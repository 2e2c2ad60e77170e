/**
 * Disputes of card payments, the pure part (issue 30): where a decision takes
 * a dispute, and what it does to the money credited for it. No IO here.
 */
import type {
  DisputeOutcome,
  DisputeReason,
  DisputeStatus,
} from '../../../contract/card-disputes.ts'
import { assertNever } from '../../infra/problem.ts'

/** A fraud claim is credited at once, provisionally; a dispute with the merchant when won. */
export const creditedAtOnce = (reason: DisputeReason) => reason === 'fraud'

/** What a decision does to the money: nothing, a credit, a provisional one made final, or taken back. */
export type DisputeMoney = 'none' | 'credit' | 'confirm' | 'reverse'

export type Decision =
  | { ok: true; status: DisputeStatus; money: DisputeMoney }
  | { ok: false; status: DisputeStatus }

/**
 * SUBMITTED → UNDER_REVIEW → WON | LOST (the network may decide at once,
 * from SUBMITTED). Won: what was credited stays, for good, and a claim not
 * yet credited is credited now. Lost: a credit is taken back. A decided
 * dispute, or a review of one under review, is refused with where it stands.
 */
export function decide(
  dispute: { status: DisputeStatus; credited: boolean },
  outcome: DisputeOutcome,
): Decision {
  const open = dispute.status === 'SUBMITTED' || dispute.status === 'UNDER_REVIEW'
  switch (outcome) {
    case 'under_review':
      return dispute.status === 'SUBMITTED'
        ? { ok: true, status: 'UNDER_REVIEW', money: 'none' }
        : { ok: false, status: dispute.status }
    case 'won':
      if (!open) return { ok: false, status: dispute.status }
      return { ok: true, status: 'WON', money: dispute.credited ? 'confirm' : 'credit' }
    case 'lost':
      if (!open) return { ok: false, status: dispute.status }
      return { ok: true, status: 'LOST', money: dispute.credited ? 'reverse' : 'none' }
    default:
      return assertNever(outcome)
  }
}
