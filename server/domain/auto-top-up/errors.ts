import { DomainError } from '../failure.ts'

/** JSON pointer into the request (`/body/top_up_to`) and how to fix it. */
export interface BodyFault {
  field: string
  message: string
}

/** What reading or setting a balance card account's auto top-up refuses; routes.ts maps each. */
export type AutoTopUpFailure =
  /** No such fiat account among the owner's (another user's answers the same). */
  | { kind: 'FIAT_ACCOUNT_NOT_FOUND' }
  /** A prepaid account: only a balance card account tops itself up. */
  | { kind: 'FIAT_ACCOUNT_TYPE_MISMATCH'; subAccountType: string }
  /** Settings that cannot be kept: each field named with how to fix it. */
  | { kind: 'INVALID_AUTO_TOP_UP'; faults: BodyFault[] }

export class AutoTopUpError extends DomainError<AutoTopUpFailure> {}
