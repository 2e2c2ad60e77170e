import { type Static, Type } from '@sinclair/typebox'
import { oneOf } from './enums.ts'
import { STATEMENT_LANGUAGES, type StatementLanguage } from './statement-languages.ts'

/*
 * Statements (issue 31): a period of one wallet, euro account or card, from
 * the ledger, rendered by a job into a file a landlord or a bank accepts —
 * and that anyone can check is genuine by its code or its SHA-256.
 */

/** `pdf` for people, `csv` for spreadsheets and accountants, `json` for programs. */
export const STATEMENT_FORMATS = ['pdf', 'csv', 'json'] as const
export type StatementFormat = (typeof STATEMENT_FORMATS)[number]

/**
 * - `queued`: waiting for the job runner;
 * - `rendering`: the job is at it (`progress` moves);
 * - `ready`: the file can be downloaded (`sha256` and `code` identify it);
 * - `failed`: the job gave up; request another.
 */
export const STATEMENT_STATUSES = ['queued', 'rendering', 'ready', 'failed'] as const
export type StatementStatus = (typeof STATEMENT_STATUSES)[number]

export { STATEMENT_LANGUAGES, type StatementLanguage }

export const STATEMENT_SCOPE_TYPES = ['wallet', 'fiat_account', 'card'] as const
export type StatementScopeType = (typeof STATEMENT_SCOPE_TYPES)[number]

/** The longest period one statement covers. */
export const STATEMENT_MAX_DAYS = 366

const Uuid = Type.String({ format: 'uuid' })
const Nullable = <T extends ReturnType<typeof Type.String>>(schema: T) =>
  Type.Union([schema, Type.Null()])

/** Exactly one of: a wallet, a fiat (euro) account, a card. */
export const StatementScope = Type.Union([
  Type.Object({ wallet_uuid: Uuid }, { additionalProperties: false }),
  Type.Object({ fiat_account_id: Uuid }, { additionalProperties: false }),
  Type.Object({ card_id: Uuid }, { additionalProperties: false }),
])
export type StatementScope = Static<typeof StatementScope>

/**
 * `POST /api/v2/statements`. `from` inclusive, `to` exclusive, at most
 * STATEMENT_MAX_DAYS apart, `to` not in the future by more than a day.
 * `language`: the person's (their profile's), else English. `time_zone`
 * (IANA): the zone the file's dates are written in, UTC when not given.
 * `request_id` (or the Idempotency-Key header): the same key and body answer
 * the first statement again.
 */
export const CreateStatementBody = Type.Object(
  {
    scope: StatementScope,
    from: Type.String({ format: 'date-time' }),
    to: Type.String({ format: 'date-time' }),
    format: oneOf(STATEMENT_FORMATS),
    language: Type.Optional(oneOf(STATEMENT_LANGUAGES)),
    time_zone: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
    request_id: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
  },
  { additionalProperties: false },
)
export type CreateStatementBody = Static<typeof CreateStatementBody>

export const Statement = Type.Object({
  id: Uuid,
  status: oneOf(STATEMENT_STATUSES),
  /** 0–100: how far the job is; 100 once ready. */
  progress: Type.Integer({ minimum: 0, maximum: 100 }),
  scope: Type.Object({ type: oneOf(STATEMENT_SCOPE_TYPES), id: Uuid }),
  from: Type.String({ format: 'date-time' }),
  to: Type.String({ format: 'date-time' }),
  format: oneOf(STATEMENT_FORMATS),
  language: oneOf(STATEMENT_LANGUAGES),
  time_zone: Type.String(),
  /** The short code printed on the file: `GET /api/statements/verify/{code}` checks it. */
  code: Type.String({ pattern: '^[0-9A-Z]{12}$' }),
  /** SHA-256 (hex) of the file, once ready. */
  sha256: Nullable(Type.String({ pattern: '^[0-9a-f]{64}$' })),
  /** The file's name and size in bytes, once ready. */
  file_name: Nullable(Type.String()),
  size: Type.Union([Type.Integer(), Type.Null()]),
  created_at: Type.String({ format: 'date-time' }),
  updated_at: Type.String({ format: 'date-time' }),
})
export type Statement = Static<typeof Statement>

/**
 * What the public verify route tells anyone holding a code, a file or a hash:
 * the holder's initials, the account's last four, the period and the file's
 * hash — nothing more.
 */
export const StatementVerification = Type.Object({
  code: Type.String(),
  holder_initials: Type.String(),
  account_last4: Type.String(),
  from: Type.String({ format: 'date-time' }),
  to: Type.String({ format: 'date-time' }),
  sha256: Type.String({ pattern: '^[0-9a-f]{64}$' }),
})
export type StatementVerification = Static<typeof StatementVerification>

/**
 * `POST /api/v2/statements/{id}/link`: a URL that downloads the file without
 * a sign-in, for a client that fetches it itself (Telegram's downloadFile).
 */
export const StatementLink = Type.Object({
  url: Type.String(),
  expires_at: Type.String({ format: 'date-time' }),
})
export type StatementLink = Static<typeof StatementLink>

/** How long a download link works. */
export const STATEMENT_LINK_SECONDS = 600

/** `POST /api/statements/verify` with JSON: the file's SHA-256 instead of the file. */
export const VerifyStatementHash = Type.Object(
  { sha256: Type.String({ pattern: '^[0-9a-fA-F]{64}$' }) },
  { additionalProperties: false },
)
export type VerifyStatementHash = Static<typeof VerifyStatementHash>
