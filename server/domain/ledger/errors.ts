import { DomainError } from '../failure.ts'
import type { EntryFault } from './rules.ts'

/**
 * The failures post() and reverse() return. The entry faults (EMPTY_ENTRY,
 * ZERO_POSTING, UNBALANCED) and ACCOUNT_NOT_FOUND are bugs in the caller, not
 * user errors: a route should let them become a 500. The others are answers.
 */
export type LedgerFailure =
  | EntryFault
  /** A non-negative account would go below zero; nothing was written. */
  | {
      kind: 'INSUFFICIENT_FUNDS'
      account: string
      currency: string
      balance: bigint
      delta: bigint
    }
  /** The key was posted before with other postings (or another kind); `entryId` is that entry. */
  | { kind: 'IDEMPOTENCY_CONFLICT'; entryId: string }
  /** A posting names an account that is not the tenant's. */
  | { kind: 'ACCOUNT_NOT_FOUND'; account: string }
  /** reverse(): no such entry in the tenant. */
  | { kind: 'ENTRY_NOT_FOUND'; entryId: string }
  /** reverse(): the entry was reversed already; corrections of corrections are new entries. */
  | { kind: 'ALREADY_REVERSED'; entryId: string }

export class LedgerError extends DomainError<LedgerFailure> {}

export const isLedgerFailure = <K extends LedgerFailure['kind']>(
  error: unknown,
  kind: K,
): error is LedgerError & { failure: Extract<LedgerFailure, { kind: K }> } =>
  error instanceof LedgerError && error.failure.kind === kind
