import { type Static, Type } from '@sinclair/typebox'
import { oneOf } from './enums.ts'
import { PROBLEM_CODES } from './problem-codes.ts'

/** RFC 9457 problem details, the body of every error answer (`application/problem+json`). */
export const Problem = Type.Object({
  type: Type.String({ description: 'URI naming the kind of problem' }),
  title: Type.String(),
  status: Type.Integer(),
  detail: Type.Optional(Type.String()),
  code: {
    ...oneOf(PROBLEM_CODES),
    description: 'Stable machine-readable code, e.g. INVALID_CREDENTIALS',
  },
  errors: Type.Optional(
    Type.Array(
      Type.Object({
        field: Type.String({ description: 'JSON pointer into the request, e.g. /body/email' }),
        message: Type.String(),
      }),
    ),
  ),
  // Extension members (RFC 9457 §3.2), present only where they apply.
  retry_after: Type.Optional(
    Type.Integer({ description: 'Seconds to wait before trying again (429)' }),
  ),
  blocked_until: Type.Optional(
    Type.String({ format: 'date-time', description: 'When a block lifts (423)' }),
  ),
  limit: Type.Optional(
    Type.Object(
      { amount: Type.String(), currency: Type.String() },
      { description: 'The bound an amount crossed (422 AMOUNT_TOO_SMALL / AMOUNT_TOO_LARGE)' },
    ),
  ),
  attempts_left: Type.Optional(
    Type.Integer({ description: 'Wrong codes left before the identifier is blocked' }),
  ),
  order_status: Type.Optional(
    Type.String({ description: 'The order’s current status, when it forbids the call (409)' }),
  ),
  card_status: Type.Optional(
    Type.String({ description: 'The card’s current status, when it forbids the call (409)' }),
  ),
  statement_status: Type.Optional(
    Type.String({
      description: 'The statement’s status while its file is not there (409 STATEMENT_NOT_READY)',
    }),
  ),
  act: Type.Optional(
    Type.String({
      description:
        'The act a lockdown refuses (409 LOCKDOWN_ACTIVE): withdrawals, payouts, api_keys, ' +
        'webhooks, contact_changes',
    }),
  ),
  lift_after: Type.Optional(
    Type.String({
      format: 'date-time',
      description: 'When the lockdown may be lifted (409 LOCKDOWN_TOO_EARLY)',
    }),
  ),
  required_role: Type.Optional(
    Type.String({
      description: 'The API key role the call needs (403 API_KEY_ROLE_FORBIDDEN)',
    }),
  ),
  methods: Type.Optional(
    Type.Array(Type.String(), {
      description:
        'The ways this session can prove the person is present (403 STEP_UP_REQUIRED): ' +
        'passkey, otp, telegram_biometrics',
    }),
  ),
  kyc_status: Type.Optional(
    Type.String({
      description:
        'The person’s identity-verification status, when it forbids the call (403 KYC_REQUIRED)',
    }),
  ),
})
export type Problem = Static<typeof Problem>

export const PROBLEM_CONTENT_TYPE = 'application/problem+json'
