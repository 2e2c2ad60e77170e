import { type Static, Type } from '@sinclair/typebox'
import { KycStatus, oneOf } from './enums.ts'

/** Who verifies identities for this deployment (KYC_PROVIDER). */
export const KYC_PROVIDERS = ['sandbox', 'sumsub'] as const
export type KycProviderName = (typeof KYC_PROVIDERS)[number]

/** The documents the sandbox's verification screen accepts. */
export const KYC_DOCUMENT_TYPES = ['PASSPORT', 'ID_CARD', 'DRIVING_LICENCE'] as const
export type KycDocumentType = (typeof KYC_DOCUMENT_TYPES)[number]

/** What moved a status: the person's submission, the sandbox (rules or operator), a provider webhook, the demo seed. */
export const KYC_STATUS_SOURCES = [
  'applicant',
  'sandbox_rules',
  'sandbox_decision',
  'webhook',
  'seed',
] as const
export type KycStatusSource = (typeof KYC_STATUS_SOURCES)[number]

/** `POST /api/v1/kyc/sumsub/generate_token`: what the provider's web SDK starts with. */
export const KycToken = Type.Object({
  token: Type.String({ description: 'The access token the provider’s SDK is opened with' }),
  level_name: Type.String({ description: 'The verification level (the checks asked for)' }),
  provider: oneOf(KYC_PROVIDERS),
  expires_at: Type.String({ format: 'date-time' }),
})
export type KycToken = Static<typeof KycToken>

export const KycHistoryEntry = Type.Object({
  status: KycStatus,
  at: Type.String({ format: 'date-time' }),
  reason: Type.Optional(Type.String({ description: 'The provider’s words, when it gave any' })),
})
export type KycHistoryEntry = Static<typeof KycHistoryEntry>

/** `GET /api/v1/kyc/status`: where the signed-in person's verification stands. */
export const KycStatusReply = Type.Object({
  status: KycStatus,
  /** A new submission is accepted now (UNVERIFIED, SOFT_REJECT, DECLINED). */
  can_retry: Type.Boolean(),
  provider: oneOf(KYC_PROVIDERS),
  /** Newest first, at most 50. */
  history: Type.Array(KycHistoryEntry),
})
export type KycStatusReply = Static<typeof KycStatusReply>

const Name = Type.String({ minLength: 1, maxLength: 100, pattern: '\\S' })

/** `POST /api/v1/kyc/sandbox/applicant`: the sandbox verification screen's submission. */
export const SandboxApplicantBody = Type.Object(
  {
    first_name: Name,
    last_name: Name,
    document_type: oneOf(KYC_DOCUMENT_TYPES),
    country: Type.String({ pattern: '^[A-Z]{2}$', description: 'ISO 3166-1 alpha-2' }),
    selfie: Type.Literal(true, { description: 'The selfie step was done' }),
  },
  { additionalProperties: false },
)
export type SandboxApplicantBody = Static<typeof SandboxApplicantBody>

/** `POST /api/sandbox/kyc/decision`: the sandbox operator decides for the signed-in person. */
export const SandboxKycDecisionBody = Type.Object(
  {
    status: KycStatus,
    reason: Type.Optional(Type.String({ minLength: 1, maxLength: 500 })),
  },
  { additionalProperties: false },
)
export type SandboxKycDecisionBody = Static<typeof SandboxKycDecisionBody>

/** The answer to a provider's webhook: what became of the event. */
export const KycWebhookReply = Type.Object({
  outcome: Type.Union([
    Type.Literal('applied'),
    Type.Literal('duplicate'),
    Type.Literal('ignored'),
    Type.Literal('stale'),
  ]),
})
export type KycWebhookReply = Static<typeof KycWebhookReply>
