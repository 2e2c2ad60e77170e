import type { ColumnType, Generated, Insertable, Selectable } from 'kysely'
import type { KycStatus } from '../../../contract/enums.ts'
import type { OtpChannel, OtpPurpose } from '../../../contract/otp.ts'
import type { Address } from '../../../contract/user.ts'

/** A column the database fills in on insert (`default now()`), readable as a Date. */
type CreatedAt = ColumnType<Date, Date | undefined, Date>

export interface TenantsTable {
  id: string
  name: string
  created_at: CreatedAt
}

export interface UsersTable {
  id: string
  tenant_id: string
  email: string | null
  phone: string | null
  password_hash: string | null
  telegram_id: string | null
  kyc_status: Generated<KycStatus>
  /** Set by the tenant; a blocked user answers 423 everywhere. */
  blocked_at: Date | null
  created_at: CreatedAt
  updated_at: CreatedAt
}

export interface UserProfilesTable {
  user_id: string
  tenant_id: string
  first_name: string | null
  last_name: string | null
  /** `YYYY-MM-DD`: a date is not a moment, so it stays text (see database.ts). */
  date_of_birth: string | null
  language: 'en' | 'ru' | null
  /** jsonb: written as JSON text, read back as the object. */
  address: ColumnType<Address | null, string | null, string | null>
  username: string | null
  photo_url: string | null
  is_premium: Generated<boolean>
  updated_at: CreatedAt
}

export interface SessionsTable {
  id: string
  tenant_id: string
  user_id: string
  created_at: CreatedAt
  revoked_at: Date | null
  revoke_reason: string | null
  user_agent: string | null
}

export interface RefreshTokensTable {
  id: string
  tenant_id: string
  session_id: string
  token_hash: string
  created_at: CreatedAt
  expires_at: Date
  used_at: Date | null
  replaced_by: string | null
}

/** Why a one-time code can no longer be used. */
export type OtpConsumedReason = 'verified' | 'superseded' | 'blocked'

export interface OtpCodesTable {
  id: string
  tenant_id: string
  channel: OtpChannel
  /** E-mail lower-cased, or a phone as digits. */
  identifier: string
  purpose: OtpPurpose
  user_id: string | null
  /** HMAC of the code (domain/otp/code-hash.ts); the code itself is never stored. */
  code_hash: string
  expires_at: Date
  consumed_at: Date | null
  consumed_reason: OtpConsumedReason | null
  created_at: CreatedAt
}

export interface OtpAttemptsTable {
  tenant_id: string
  channel: OtpChannel
  identifier: string
  failed_attempts: Generated<number>
  last_failed_at: Date | null
  blocked_until: Date | null
  updated_at: CreatedAt
}

export interface SandboxOutboxTable {
  id: string
  tenant_id: string
  channel: OtpChannel
  recipient: string
  purpose: OtpPurpose
  code: string
  subject: string | null
  body: string
  created_at: CreatedAt
}

export interface DB {
  tenants: TenantsTable
  users: UsersTable
  user_profiles: UserProfilesTable
  sessions: SessionsTable
  refresh_tokens: RefreshTokensTable
  otp_codes: OtpCodesTable
  otp_attempts: OtpAttemptsTable
  sandbox_outbox: SandboxOutboxTable
}

export type UserRow = Selectable<UsersTable>
export type NewUser = Insertable<UsersTable>
export type RefreshTokenRow = Selectable<RefreshTokensTable>
