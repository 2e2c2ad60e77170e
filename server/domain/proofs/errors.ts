import { DomainError } from '../failure.ts'

/**
 * Why a snapshot could not be published; the CLI and the daily job word them
 * (cli.ts, publish-job.ts). Publishing fails loudly: nothing is written.
 */
export type PublishFailure =
  /** The tenant has no proof key yet: `npm run tenant -- proofs key <id>` makes one. */
  | { kind: 'PROOF_KEY_MISSING'; tenantId: string }
  /**
   * Money still arriving (a deposit waiting for confirmations) or a balance
   * below zero: the snapshot would hide it or count it wrongly, so it waits
   * for a moment when every balance is settled.
   */
  | { kind: 'BALANCES_UNSETTLED'; pending: number; negative: number }
  /** The tree's root does not equal the ledger's total liabilities (a bug: nothing is published). */
  | { kind: 'LIABILITIES_MISMATCH'; ledger: string; root: string }

export class PublishError extends DomainError<PublishFailure> {}

/** Why a proof or key cannot be answered; routes.ts maps each to its problem. */
export type ProofReadFailure =
  | { kind: 'TENANT_NOT_FOUND'; tenantId: string }
  /** The tenant has no proof key (and so no roots). */
  | { kind: 'PROOF_KEY_NOT_FOUND'; tenantId: string }
  /** The tenant has published no snapshot yet. */
  | { kind: 'PROOF_NOT_PUBLISHED' }
  /** The person joined after the newest snapshot was taken: the next one holds them. */
  | { kind: 'NOT_IN_PROOF'; takenAt: Date }

export class ProofReadError extends DomainError<ProofReadFailure> {}
