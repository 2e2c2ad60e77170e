import type { KycStatus } from '../../../contract/enums.ts'
import type { KycProviderName } from '../../../contract/kyc.ts'

/** An access token for the provider's SDK, for one person. */
export interface KycAccessToken {
  token: string
  expiresAt: Date
}

export interface AccessTokenRequest {
  /** Our user id: the provider's `externalUserId`, which its webhooks name the person by. */
  userId: string
  levelName: string
  ttlSeconds: number
}

/**
 * Verifies identities. One interface, two implementations: the Sumsub adapter
 * (sumsub.ts) and the offline sandbox (sandbox.ts), whose decisions come from
 * rules or the sandbox operator (domain/kyc).
 */
export interface KycProvider {
  readonly name: KycProviderName
  /**
   * A token the person's browser opens the provider's SDK with.
   * @throws KycProviderError when the provider refuses or cannot be reached
   */
  accessToken(request: AccessTokenRequest): Promise<KycAccessToken>
}

/** The provider did not answer as documented; nothing was changed on our side. */
export class KycProviderError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options)
    this.name = 'KycProviderError'
  }
}

/** A provider's event, read: whose it is, what it says the status now is, and when. */
export interface KycProviderEvent {
  /** The provider's name for the event (Sumsub's `type`, e.g. applicantReviewed). */
  type: string
  /** Our user id, as given to the provider when the token was made. */
  externalUserId: string | undefined
  /** The status the event moves the person to; undefined: the event changes no status. */
  status: KycStatus | undefined
  /** The provider's words for a refusal, when it gave any. */
  reason: string | undefined
  /** When the provider says it happened. */
  occurredAt: Date | undefined
}
