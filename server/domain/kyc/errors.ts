import type { KycStatus } from '../../../contract/enums.ts'
import type { KycProviderName } from '../../../contract/kyc.ts'
import { ProblemError } from '../../infra/problem.ts'
import { DomainError } from '../failure.ts'
import type { SubmissionRefusal } from './rules.ts'

export type KycFailure =
  | { kind: SubmissionRefusal; status: KycStatus }
  | { kind: 'PROVIDER_MISMATCH'; provider: KycProviderName; unconfigured?: boolean }
  | { kind: 'USER_NOT_FOUND' }
  | { kind: 'COUNTRY_NOT_SUPPORTED'; country: string; supported: string[] }

/** A KYC use case refused: each use case documents the kinds it throws. */
export class KycError extends DomainError<KycFailure> {}

/**
 * The gate's refusal: 403 KYC_REQUIRED, with the person's status. It is a
 * ProblemError itself, unlike the other domain errors: the gate runs inside
 * other areas' use cases (orders, cards), and an error that already knows its
 * answer passes through their toProblem switches unchanged, so none of them
 * needs a case for it.
 */
export class KycRequiredError extends ProblemError {
  constructor(readonly kycStatus: KycStatus) {
    super(
      403,
      'KYC_REQUIRED',
      `This needs a verified identity; the verification is ${kycStatus}. See GET /api/v1/kyc/status.`,
      { title: 'Forbidden', extensions: { kyc_status: kycStatus } },
    )
    this.name = 'KycRequiredError'
  }
}
