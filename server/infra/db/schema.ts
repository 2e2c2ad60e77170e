import type { ColumnType, Generated, Insertable, Selectable } from 'kysely'
import type { AddressFormat, ChainId, CurrencyType } from '../../../contract/catalog.ts'
import type { KycStatus } from '../../../contract/enums.ts'
import type { OtpChannel, OtpPurpose } from '../../../contract/otp.ts'
import type { Address } from '../../../contract/user.ts'
import type { RecordType, TransactionStatus, WalletType } from '../../../contract/wallets.ts'

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

/** Reference data seeded by migration 0004; the same for every tenant. */
export interface ChainsTable {
  id: ChainId
  name: string
  address_format: AddressFormat
  confirmations: number
  native_currency_uuid: string
  sort_order: number
}

export interface CurrenciesTable {
  uuid: string
  code: string
  name: string
  type: CurrencyType
  decimals: number
  chain: ChainId | null
  sort_order: number
}

export interface WalletsTable {
  id: string
  tenant_id: string
  user_id: string
  type: WalletType
  created_at: CreatedAt
}

/** docs/decisions.md: which kinds exist, and which may go below zero. */
export type LedgerAccountKind =
  | 'user_wallet'
  | 'pending'
  | 'held'
  | 'external'
  | 'fees'
  | 'treasury'

export interface LedgerAccountsTable {
  id: string
  tenant_id: string
  kind: LedgerAccountKind
  /** Set for the wallet kinds (user_wallet, pending, held), null for system accounts. */
  wallet_id: string | null
  may_go_negative: boolean
  created_at: CreatedAt
}

export interface JournalEntriesTable {
  id: string
  tenant_id: string
  kind: string
  idempotency_key: string
  reverses_entry_id: string | null
  created_at: CreatedAt
}

/**
 * NUMERIC(78, 0) minor units. Read back as a decimal string (database.ts),
 * written as one (`bigint.toString()`): never through a JS number.
 */
type Minor = ColumnType<string, string, string>

export interface PostingsTable {
  entry_id: string
  seq: number
  tenant_id: string
  account_id: string
  currency_uuid: string
  amount_minor: Minor
}

export interface AccountBalancesTable {
  account_id: string
  currency_uuid: string
  tenant_id: string
  balance_minor: Minor
  may_go_negative: boolean
  updated_at: CreatedAt
}

export interface TenantAddressSeedsTable {
  tenant_id: string
  seed_ciphertext: string
  created_at: CreatedAt
}

export interface AddressIndexCountersTable {
  tenant_id: string
  derivation_family: 'bitcoin' | 'evm' | 'tron' | 'solana'
  next_index: Generated<number>
}

export interface WalletAddressesTable {
  id: string
  tenant_id: string
  wallet_id: string
  chain: ChainId
  address: string
  derivation_index: number
  label: string | null
  created_at: CreatedAt
}

export interface WalletTransactionsTable {
  id: string
  tenant_id: string
  wallet_id: string
  type: 'deposit' | 'withdrawal'
  method: 'p2p' | 'crypto' | 'bank_transfer' | 'exchange' | 'sbp'
  record_type: RecordType
  status: TransactionStatus
  currency_uuid: string
  /** Always positive; `type` says which way. */
  amount_minor: Minor
  address: string | null
  tx_hash: string | null
  confirmations: number | null
  operation_id: string | null
  created_at: CreatedAt
  updated_at: CreatedAt
}

export interface JobsTable {
  id: string
  tenant_id: string | null
  kind: string
  /** jsonb: written as JSON text, read back as the object. */
  payload: ColumnType<Record<string, unknown>, string | undefined, string>
  run_at: CreatedAt
  attempts: Generated<number>
  last_error: string | null
  done_at: Date | null
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
  chains: ChainsTable
  currencies: CurrenciesTable
  wallets: WalletsTable
  ledger_accounts: LedgerAccountsTable
  journal_entries: JournalEntriesTable
  postings: PostingsTable
  account_balances: AccountBalancesTable
  tenant_address_seeds: TenantAddressSeedsTable
  address_index_counters: AddressIndexCountersTable
  wallet_addresses: WalletAddressesTable
  wallet_transactions: WalletTransactionsTable
  jobs: JobsTable
}

export type UserRow = Selectable<UsersTable>
export type NewUser = Insertable<UsersTable>
export type RefreshTokenRow = Selectable<RefreshTokensTable>
