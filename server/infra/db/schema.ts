import type { ColumnType, Generated, Insertable, Selectable } from 'kysely'
import type { KycStatus } from '../../../contract/enums.ts'
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

export interface DB {
  tenants: TenantsTable
  users: UsersTable
  user_profiles: UserProfilesTable
  sessions: SessionsTable
  refresh_tokens: RefreshTokensTable
}

export type UserRow = Selectable<UsersTable>
export type NewUser = Insertable<UsersTable>
export type RefreshTokenRow = Selectable<RefreshTokensTable>
