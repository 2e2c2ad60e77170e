import type { KycStatus } from '../../../contract/enums.ts'
import type { OrderType } from '../../../contract/orders.ts'

/**
 * The states of a person's identity verification (docs/product.md §4) and what each
 * allows. Pure: no IO.
 *
 * - UNVERIFIED: never submitted (or reset by the provider): may submit.
 * - PENDING, HOLD: with the provider (HOLD: it asked for more checks): wait.
 * - APPROVED: verified; the only status the gated actions accept.
 * - SOFT_REJECT: refused with a correctable reason (a blurred photo): may submit again.
 * - DECLINED: refused, not finally (the sandbox's rules decline, a provider's
 *   unclassified refusal): may submit again — only REJECT is final by name,
 *   and a person declined by a rule must have a way back without support.
 * - REJECT: refused for good: a new submission is 409 KYC_FINAL.
 * - DOUBLE: the person is already verified under another account: as final
 *   as REJECT (support merges or closes accounts, a retry cannot).
 */
export const RETRYABLE_STATUSES = [
  'UNVERIFIED',
  'SOFT_REJECT',
  'DECLINED',
] as const satisfies readonly KycStatus[]

export const canRetry = (status: KycStatus) =>
  (RETRYABLE_STATUSES as readonly KycStatus[]).includes(status)

/** Why a new submission (or a new SDK token) is refused, if it is. */
export type SubmissionRefusal = 'KYC_FINAL' | 'KYC_IN_REVIEW' | 'KYC_ALREADY_APPROVED'

export function submissionRefusal(status: KycStatus): SubmissionRefusal | undefined {
  switch (status) {
    case 'UNVERIFIED':
    case 'SOFT_REJECT':
    case 'DECLINED':
      return undefined
    case 'PENDING':
    case 'HOLD':
      return 'KYC_IN_REVIEW'
    case 'APPROVED':
      return 'KYC_ALREADY_APPROVED'
    case 'REJECT':
    case 'DOUBLE':
      return 'KYC_FINAL'
  }
}

/**
 * Whether the provider's SDK may be opened: everything but a final refusal
 * or a finished verification. While PENDING or HOLD it shows where the
 * review stands, so a token is still given.
 */
export function tokenRefusal(status: KycStatus): SubmissionRefusal | undefined {
  const refusal = submissionRefusal(status)
  return refusal === 'KYC_IN_REVIEW' ? undefined : refusal
}

/** Orders that move money in from or out to the outside world need a verified identity. */
export function orderNeedsKyc(type: OrderType): boolean {
  return type.startsWith('WITHDRAWAL_') || type.startsWith('DEPOSIT_FIAT_')
}

/**
 * The sandbox's decision once SANDBOX_KYC_MS has passed: a name containing
 * "reject" (any letter case) is declined, everyone else approved — so both
 * outcomes can be tried from the app.
 */
export function sandboxRuling(applicant: { firstName: string; lastName: string }): {
  status: 'APPROVED' | 'DECLINED'
  reason?: string
} {
  const name = `${applicant.firstName} ${applicant.lastName}`
  if (/reject/i.test(name)) {
    return { status: 'DECLINED', reason: 'The name on the document could not be confirmed.' }
  }
  return { status: 'APPROVED' }
}

/**
 * Whether a provider event may move the status: an event older than the last
 * one applied is out of order (webhooks are retried for hours) and would undo
 * a newer decision. Events without a time are taken as they come.
 */
export function isStale(event: Date | undefined, lastApplied: Date | undefined): boolean {
  return event !== undefined && lastApplied !== undefined && event.getTime() < lastApplied.getTime()
}
