import { DomainError } from '../failure.ts'
import type { ProgramRefusal } from './rules.ts'

/** The failures the fiat-account use cases return; routes.ts maps each to its HTTP answer. */
export type FiatAccountFailure =
  /** No such fiat account among the owner's (another user's answers the same). */
  | { kind: 'FIAT_ACCOUNT_NOT_FOUND' }
  /** The program named cannot take a new account: not the tenant's, or archived. */
  | { kind: ProgramRefusal; programId: string }

export class FiatAccountError extends DomainError<FiatAccountFailure> {}
