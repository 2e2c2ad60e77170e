import { randomBytes } from 'node:crypto'
import type { AccessTokenRequest, KycAccessToken, KycProvider } from './kyc.ts'

/**
 * The offline stand-in for a verification provider. Its "SDK" is the app's
 * own sandbox screen, which submits through POST /api/v1/kyc/sandbox/applicant
 * under the person's session: the token only marks that a verification was
 * opened, it is not checked anywhere. The decisions are domain/kyc's (rules
 * after SANDBOX_KYC_MS, or the operator's POST /api/sandbox/kyc/decision).
 */
export class SandboxKyc implements KycProvider {
  readonly name = 'sandbox' as const

  constructor(private readonly clock: () => Date = () => new Date()) {}

  async accessToken(request: AccessTokenRequest): Promise<KycAccessToken> {
    return {
      token: `sbx_act-${randomBytes(18).toString('base64url')}`,
      expiresAt: new Date(this.clock().getTime() + request.ttlSeconds * 1000),
    }
  }
}
