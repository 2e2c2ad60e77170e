import type { ColumnType, Generated, Insertable, Selectable } from 'kysely'
import type {
  ActivityDirection,
  ActivityEventCode,
  ActivitySourceType,
  ActivityStatus,
  ActivityType,
} from '../../../contract/activity.ts'
import type { CardChannel, DisputeStatus } from '../../../contract/card-choices.ts'
import type { CardControls } from '../../../contract/card-controls.ts'
import type {
  CardFeeKind,
  CardLimitKind,
  CardTransactionStatus,
  CardTransactionType,
  DeclineReason,
} from '../../../contract/card-transactions.ts'
import type {
  CardFormFactor,
  CardStatus,
  DeliveryAddress,
  DeliveryStatus,
} from '../../../contract/cards.ts'
import type { AddressFormat, ChainId, CurrencyType } from '../../../contract/catalog.ts'
import type {
  BankAccountType,
  CounterpartyType,
  DestinationType,
} from '../../../contract/counterparties.ts'
import type { ApiKeyRole } from '../../../contract/developer.ts'
import type { KycStatus } from '../../../contract/enums.ts'
import type { FiatAccountStatus, SubAccountType } from '../../../contract/fiat-accounts.ts'
import type { KycDocumentType, KycProviderName, KycStatusSource } from '../../../contract/kyc.ts'
import type { Language } from '../../../contract/languages.ts'
import type {
  FeeKind,
  OrderEventCode,
  OrderStatus,
  OrderTarget,
  OrderType,
} from '../../../contract/orders.ts'
import type { OtpChannel, OtpPurpose } from '../../../contract/otp.ts'
import type { OutboxPurpose } from '../../../contract/sandbox.ts'
import type { Address } from '../../../contract/user.ts'
import type { RecordType, TransactionStatus, WalletType } from '../../../contract/wallets.ts'
import type { CardsControlTables } from './cards-control-schema.ts'
import type { EventTables } from './events-schema.ts'
import type { PayPeopleTables } from './pay-people-schema.ts'
import type { ProofTables } from './proofs-schema.ts'
import type { StatementTables } from './statements-schema.ts'

/** A column the database fills in on insert (`default now()`), readable as a Date. */
type CreatedAt = ColumnType<Date, Date | undefined, Date>

export interface TenantsTable {
  id: string
  name: string
  created_at: CreatedAt
  /** The configuration of migration 0012 (contract/tenants.ts); defaults in the migration. */
  primary_color: Generated<string>
  accent_color: Generated<string>
  logo_url: ColumnType<string | null, string | null | undefined, string | null>
  products: ColumnType<Record<string, boolean>, string | undefined, string>
  wallet_types: ColumnType<string[], string | undefined, string>
  default_display_currency: Generated<string>
  /** Null: every country of GET /location/countries. */
  supported_countries: ColumnType<string[] | null, string | null | undefined, string | null>
  support_email: Generated<string>
  support_phone: ColumnType<string | null, string | null | undefined, string | null>
  support_url: ColumnType<string | null, string | null | undefined, string | null>
  logout_url: ColumnType<string | null, string | null | undefined, string | null>
  /** Migration 0024: the WebAuthn relying party; null: the server's WEBAUTHN_RP_ID / _ORIGINS. */
  webauthn_rp_id: ColumnType<string | null, string | null | undefined, string | null>
  webauthn_origins: ColumnType<string[] | null, string | null | undefined, string | null>
  configured_at: ColumnType<Date | null, Date | null | undefined, Date | null>
  updated_at: CreatedAt
  /** Migration 0035: a first payment to someone new above this (display currency) needs the second look. */
  new_payee_step_up_amount: ColumnType<string, string | undefined, string>
}

export interface UsersTable {
  id: string
  tenant_id: string
  email: string | null
  phone: string | null
  password_hash: string | null
  /** Migration 0028: the last change or reset (null: as signed up, or none). */
  password_changed_at: Date | null
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
  language: Language | null
  /** jsonb: written as JSON text, read back as the object. */
  address: ColumnType<Address | null, string | null, string | null>
  username: string | null
  photo_url: string | null
  is_premium: Generated<boolean>
  updated_at: CreatedAt
  /** Migration 0035: others of the tenant may find the person by contact (GET /people/lookup). */
  people_discoverable: Generated<boolean>
}

export interface SessionsTable {
  id: string
  tenant_id: string
  user_id: string
  created_at: CreatedAt
  revoked_at: Date | null
  revoke_reason: string | null
  user_agent: string | null
  /** Migration 0024 (issue 21): where the session came from, how it began, its last proof. */
  ip: string | null
  app_env: 'web' | 'telegram' | null
  sign_in_method: SignInMethod | null
  last_seen_at: Date | null
  device_id: string | null
  new_device: Generated<boolean>
  stepped_up_at: Date | null
  step_up_method: StepUpMethod | null
  /** Migration 0028: when Telegram signed the launch data a Telegram sign-in used. */
  telegram_auth_date: Date | null
}

export type SignInMethod = 'password' | 'otp' | 'telegram' | 'passkey'
export type StepUpMethod = 'passkey' | 'otp' | 'telegram_biometrics'

export interface UserDevicesTable {
  id: string
  tenant_id: string
  user_id: string
  fingerprint: string
  first_seen_at: CreatedAt
  last_seen_at: CreatedAt
}

export interface PasskeysTable {
  id: string
  tenant_id: string
  user_id: string
  credential_id: string
  public_key: Uint8Array
  /** bigint in the database; counters stay far below 2^53. */
  sign_count: ColumnType<string | number, number, number>
  transports: ColumnType<string[], string, string>
  name: string
  device_type: 'singleDevice' | 'multiDevice'
  backed_up: boolean
  created_at: CreatedAt
  last_used_at: Date | null
}

export interface WebauthnChallengesTable {
  challenge: string
  tenant_id: string
  purpose: 'register' | 'sign_in' | 'step_up'
  session_id: string | null
  expires_at: Date
  created_at: CreatedAt
}

export interface TelegramBiometricTokensTable {
  id: string
  tenant_id: string
  user_id: string
  token_hash: string
  created_at: CreatedAt
  last_used_at: Date | null
  /** Migration 0028: the session that enrolled it (the only one it proves presence in)… */
  session_id: string
  /** …until then. */
  expires_at: Date
}

/** Migration 0028: Telegram launch data that signed someone in, until it is too old anyway. */
export interface TelegramInitDataUsesTable {
  hash: string
  expires_at: Date
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
  /** Migration 0028: counted per purpose. */
  purpose: OtpPurpose
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
  purpose: OutboxPurpose
  /** Null for a security notice (migration 0027). */
  code: string | null
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
  /** A fiat account's money (card balance): belongs to a wallet, not part of its balances. */
  | 'sub_account'

export interface LedgerAccountsTable {
  id: string
  tenant_id: string
  kind: LedgerAccountKind
  /** Set for the wallet kinds (user_wallet, pending, held, sub_account), null for system accounts. */
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
  /** 0, or 0–15 for an account that may go negative: its balance is the rows' sum (migration 0039). */
  shard: Generated<number>
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
  /** Migration 0015: the activity item the record belongs to. */
  activity_id: ColumnType<string | null, string | null | undefined, string | null>
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
  /** The runner holding the lease (a random id per runner), null once finished or never claimed. */
  claimed_by: ColumnType<string | null, string | null | undefined, string | null>
}

/** One fixed-window counter per limited key (infra/rate-limit.ts). */
export interface RateLimitHitsTable {
  key: string
  window_start: Date
  hits: number
}

export interface CounterpartiesTable {
  id: string
  tenant_id: string
  wallet_id: string
  type: CounterpartyType
  first_name: string | null
  last_name: string | null
  legal_name: string | null
  email: string | null
  phone: string | null
  country: string
  /** jsonb: written as JSON text, read back as the object. */
  address: ColumnType<Address | null, string | null, string | null>
  created_at: CreatedAt
  updated_at: CreatedAt
}

export interface CounterpartyDestinationsTable {
  id: string
  tenant_id: string
  counterparty_id: string
  type: DestinationType
  label: string | null
  iban: string | null
  bic: string | null
  account_number: string | null
  routing_number: string | null
  account_type: BankAccountType | null
  bank_name: string | null
  bank_country: string | null
  chain: ChainId | null
  address: string | null
  /** CRYPTO_INTERNAL: the wallet paid (answered as `wallet_uuid`). */
  target_wallet_id: string | null
  created_at: CreatedAt
  updated_at: CreatedAt
  /** Set by DELETE; the row stays for the orders that reference it. */
  deleted_at: ColumnType<Date | null, Date | null | undefined, Date | null>
}

export interface CardProgramsTable {
  id: string
  tenant_id: string
  name: string
  status: 'ACTIVE' | 'ARCHIVED'
  currency_uuid: string
  /** jsonb array of 'VIRTUAL' | 'PHYSICAL'. */
  form_factors: ColumnType<('VIRTUAL' | 'PHYSICAL')[], string, string>
  card_type: 'CREDIT' | 'DEBIT'
  sub_account_type: SubAccountType
  bin: string
  fee_issue_minor: ColumnType<string, string | undefined, string>
  fee_monthly_minor: ColumnType<string, string | undefined, string>
  /** NUMERIC(6,3) read back as a decimal string ("1.000"). */
  fee_top_up_percent: ColumnType<string, string | undefined, string>
  sort_order: Generated<number>
  created_at: CreatedAt
}

export interface FiatAccountsTable {
  id: string
  tenant_id: string
  wallet_id: string
  program_id: string
  currency_uuid: string
  sub_account_type: SubAccountType
  status: ColumnType<FiatAccountStatus, FiatAccountStatus | undefined, FiatAccountStatus>
  ledger_account_id: string
  /** The sub-account card authorisations hold money in (migration 0008); opened on the first one. */
  hold_ledger_account_id: ColumnType<string | null, string | null | undefined, string | null>
  /** Migration 0026: the account's own IBAN at the bank (SEPA currencies); null for the others. */
  iban: ColumnType<string | null, string | null | undefined, string | null>
  created_at: CreatedAt
  updated_at: CreatedAt
}

/** Migration 0026: a SEPA credit the bank reported to a fiat account's IBAN. */
export interface FiatAccountCreditsTable {
  id: string
  tenant_id: string
  fiat_account_id: string
  end_to_end_id: string
  iban: string
  amount_minor: Minor
  currency_uuid: string
  sender_name: string | null
  sender_iban: string | null
  remittance: string | null
  received_at: Date
}

/** One fee line as stored (contract FeeLine without the currency, which is the order's from). */
export interface StoredFee {
  kind: FeeKind
  amount_minor: string
  percent: string | null
}

/** jsonb columns: written as JSON text, read back as the value. */
type Json<T> = ColumnType<T, string, string>

/**
 * What a payout or withdrawal pays, fixed when the quote is priced and
 * copied to the order: the job tells the rail this, never the destination as
 * it is by then. Internal: no answer shows it (the target's `display` does).
 * A bank account with the beneficiary's name as the bank is told it; a chain
 * address; a wallet of the platform (CRYPTO_INTERNAL destinations).
 */
export type StoredPayee =
  | { kind: 'bank_account'; iban: string; bic: string | null; beneficiary: string }
  | { kind: 'chain_address'; chain: ChainId; address: string }
  | { kind: 'wallet'; wallet_uuid: string }

/** Null for orders that pay no one outside the paying wallet (deposits, exchanges, top-ups). */
type PayeeColumn = ColumnType<StoredPayee | null, string | null | undefined, string | null>

export interface OrdersTable {
  id: string
  tenant_id: string
  user_id: string
  wallet_id: string
  order_type: OrderType
  status: OrderStatus
  /** The quote's token it was placed with (migration 0037; a uuid before). */
  quote_id: string
  /** SHA-256 of quote_id, unique per tenant: one quote, one order (the old uuid before 0037). */
  quote_hash: string
  request_id: string
  request_hash: string
  from_currency_uuid: string
  to_currency_uuid: string
  amount_from_minor: Minor
  amount_to_minor: Minor
  rate: string
  fees: Json<StoredFee[]>
  total_minor: Minor
  target: Json<OrderTarget>
  payee: PayeeColumn
  counterparty_destination_id: string | null
  fiat_account_id: string | null
  note: string | null
  deposit_reference: string | null
  tx_hash: string | null
  /** When the job handed the order to its rail; null before (and for rails without a hand-off). */
  submitted_at: Date | null
  /** The bank's id of a payout. */
  rail_reference: string | null
  failure_code: string | null
  created_at: CreatedAt
  updated_at: CreatedAt
}

export interface OrderEventsTable {
  order_id: string
  seq: number
  tenant_id: string
  status: OrderStatus
  /** What happened, for the app to word (rules.ts timelineEvent; `note` says the same). */
  code: OrderEventCode
  note: string | null
  at: CreatedAt
}

export interface BankTransfersTable {
  id: string
  tenant_id: string
  order_id: string
  reference: string
  amount_minor: Minor
  currency_uuid: string
  sender_name: string | null
  sender_iban: string | null
  received_at: CreatedAt
}

export interface CardsTable {
  id: string
  tenant_id: string
  user_id: string
  wallet_id: string
  fiat_account_id: string
  program_id: string
  stand_alone: boolean
  form_factor: CardFormFactor
  card_type: 'CREDIT' | 'DEBIT'
  status: ColumnType<CardStatus, CardStatus | undefined, CardStatus>
  nick_name: string | null
  bin: string
  last4: string
  /** AES-256-GCM, `v1.<iv>.<tag>.<ciphertext>` (domain/cards/pan-vault.ts); never answered. */
  pan_ciphertext: string
  pan_key_id: string
  pan_fingerprint: string
  expiry_month: number
  expiry_year: number
  limit_per_transaction_minor: Minor
  limit_daily_minor: Minor
  limit_monthly_minor: Minor
  closed_at: Date | null
  /** PHYSICAL cards (migration 0009): jsonb DeliveryAddress, written as JSON text. */
  delivery_address: ColumnType<DeliveryAddress | null, string | null | undefined, string | null>
  delivery_status: ColumnType<
    DeliveryStatus | null,
    DeliveryStatus | null | undefined,
    DeliveryStatus | null
  >
  delivery_updated_at: ColumnType<Date | null, Date | null | undefined, Date | null>
  /** Wrong activation codes within the hour from activation_failed_since (migration 0009). */
  activation_failures: Generated<number>
  activation_failed_since: ColumnType<Date | null, Date | null | undefined, Date | null>
  /** Wrong 3-D Secure codes within the hour from three_ds_failed_since (migration 0013). */
  three_ds_failures: Generated<number>
  three_ds_failed_since: ColumnType<Date | null, Date | null | undefined, Date | null>
  /** Migration 0034: the card's controls as answered (jsonb); null: the defaults. */
  controls: ColumnType<CardControls | null, string | null | undefined, string | null>
  /** Frozen by a lockdown, until the person unfreezes it (migration 0034). */
  frozen_by_lockdown: ColumnType<boolean, boolean | undefined, boolean>
  created_at: CreatedAt
  updated_at: CreatedAt
}

export interface CardRenameRequestsTable {
  card_id: string
  request_id: string
  nick_name: string
  created_at: CreatedAt
}

export interface CardRevealsTable {
  id: string
  tenant_id: string
  card_id: string
  session_id: string
  kind: 'SECRETS' | 'OTP'
  created_at: CreatedAt
}

export interface CardSecretExchangesTable {
  key_hash: string
  tenant_id: string
  card_id: string
  created_at: CreatedAt
}

export interface CardOtpsTable {
  id: string
  tenant_id: string
  card_id: string
  code_hash: string
  expires_at: Date
  used_at: Date | null
  created_at: CreatedAt
}

export interface CardTransactionsTable {
  id: string
  tenant_id: string
  user_id: string
  /** Null for account-level records (a top-up's DEPOSIT), migration 0009. */
  card_id: string | null
  fiat_account_id: string
  wallet_id: string
  type: CardTransactionType
  status: CardTransactionStatus
  currency_uuid: string
  amount_minor: Minor
  merchant_name: string | null
  merchant_mcc: string | null
  merchant_city: string | null
  merchant_country: string | null
  decline_reason: DeclineReason | null
  exceeded_limit: CardLimitKind | null
  authorization_id: string | null
  /** Migration 0009: FEE records' kind and, for MONTHLY, the 'YYYY-MM' of the anniversary. */
  fee_kind: ColumnType<CardFeeKind | null, CardFeeKind | null | undefined, CardFeeKind | null>
  fee_period: ColumnType<string | null, string | null | undefined, string | null>
  /** A DEPOSIT's operation (the top-up order). */
  operation_id: ColumnType<string | null, string | null | undefined, string | null>
  network_message_id: ColumnType<string | null, string | null | undefined, string | null>
  message_hash: ColumnType<string | null, string | null | undefined, string | null>
  /** Migration 0015: the activity item (a clearing's or refund's: its purchase's). */
  activity_id: ColumnType<string | null, string | null | undefined, string | null>
  /** Migration 0034: how an authorisation's card was presented. */
  channel: ColumnType<CardChannel | null, CardChannel | null | undefined, CardChannel | null>
  created_at: CreatedAt
  updated_at: CreatedAt
}

/** An optional column on insert: nullable, null when left out. */
type Optional<T> = ColumnType<T | null, T | null | undefined, T | null>

/** One step of an activity's timeline (not an order's: those are order_events). */
export interface StoredActivityEvent {
  status: ActivityStatus
  code: ActivityEventCode
  at: string
  amount_minor: string | null
}

/** Migration 0015: one item of a person's activity feed (domain/activity). */
export interface ActivitiesTable {
  id: string
  tenant_id: string
  user_id: string
  type: ActivityType
  status: ActivityStatus
  direction: ActivityDirection
  source_type: ActivitySourceType
  source_id: string
  order_type: Optional<OrderType>
  wallet_id: string
  counter_wallet_id: Optional<string>
  card_id: Optional<string>
  fiat_account_id: Optional<string>
  card_last4: Optional<string>
  currency_uuid: string
  amount_minor: Minor
  fee_minor: ColumnType<string, string | undefined, string>
  refunded_minor: ColumnType<string, string | undefined, string>
  received_currency_uuid: Optional<string>
  received_minor: Optional<string>
  rate: Optional<string>
  counterparty_name: Optional<string>
  merchant_name: Optional<string>
  merchant_mcc: Optional<string>
  merchant_city: Optional<string>
  merchant_country: Optional<string>
  address: Optional<string>
  reference: Optional<string>
  tx_hash: Optional<string>
  /** The payer's note on an order (migration 0029). */
  note: Optional<string>
  confirmations: Optional<number>
  required_confirmations: Optional<number>
  fee_kind: Optional<CardFeeKind>
  failure_code: Optional<string>
  timeline: ColumnType<StoredActivityEvent[], string | undefined, string>
  search: ColumnType<string, string | undefined, string>
  /** Migration 0032: amount_minor in whole units, kept by a trigger (the search's `min`/`max`). */
  amount_value: ColumnType<string, never, never>
  /** Migration 0034: a card payment's channel, and its dispute. */
  card_channel: Optional<CardChannel>
  dispute_id: Optional<string>
  dispute_status: Optional<DisputeStatus>
  created_at: Date
  updated_at: Date
}

export interface ApiKeysTable {
  id: string
  tenant_id: string
  user_id: string
  name: string
  role: ApiKeyRole
  enabled: ColumnType<boolean, boolean | undefined, boolean>
  /** jsonb array of canonical addresses and CIDR networks; empty: from anywhere. */
  allowed_ips: Json<string[]>
  created_at: CreatedAt
  updated_at: CreatedAt
  last_used_at: ColumnType<Date | null, Date | null | undefined, Date | null>
  /** The session that created the key (migration 0027); null before it. */
  created_by_session_id: ColumnType<string | null, string | null | undefined, string | null>
}

export interface ApiKeySecretsTable {
  id: string
  api_key_id: string
  /** 16 hex digits: the `<public id>` of `fpk_<public id>_<secret>`. */
  public_id: string
  /** Hex SHA-256 of the whole key; the key itself is never stored. */
  secret_hash: string
  created_at: CreatedAt
  /** Null: the current secret; set by a rotation to when this one stops working. */
  expires_at: ColumnType<Date | null, Date | null | undefined, Date | null>
}

/** Identity verification (0011_kyc.sql): one row per submission to the provider. */
export interface KycVerificationsTable {
  id: string
  tenant_id: string
  user_id: string
  provider: KycProviderName
  first_name: string | null
  last_name: string | null
  document_type: KycDocumentType | null
  country: string | null
  status: KycStatus
  submitted_at: CreatedAt
  decided_at: Date | null
}

export interface KycStatusHistoryTable {
  id: string
  tenant_id: string
  user_id: string
  status: KycStatus
  reason: string | null
  source: KycStatusSource
  occurred_at: Date
  created_at: CreatedAt
}

export interface KycWebhookEventsTable {
  /** Hex SHA-256 of the raw body. */
  event_key: string
  tenant_id: string | null
  user_id: string | null
  type: string
  occurred_at: Date | null
  outcome: 'applied' | 'ignored' | 'stale'
  received_at: CreatedAt
}

/**
 * Who an idempotency key belongs to (migrations 0016, 0033): `order`, `card_issue` (the
 * user's keys), `card_message` (the card's: the network's message ids), `bank_credit` (the
 * fiat account's: the bank's end-to-end ids).
 */
export type IdempotencyScope =
  | 'order'
  | 'card_issue'
  | 'card_message'
  | 'bank_credit'
  /** A transfer between people (transfers/service.ts), keyed by the client's request_id. */
  | 'transfer'
  /** A dispute of a card payment (issue 30). */
  | 'card_dispute'

/** Every idempotency key and its first answer (migration 0016; domain/idempotency.ts). */
export interface IdempotencyKeysTable {
  tenant_id: string
  scope: IdempotencyScope
  owner_id: string
  key: string
  request_hash: string
  answer: ColumnType<unknown, string | null, string | null>
  created_at: CreatedAt
}

/** The demo seed a tenant has had, whole (migration 0016; domain/sandbox/demo-seed.ts). */
export interface DemoSeedsTable {
  tenant_id: string
  version: number
  seeded_at: CreatedAt
}

/**
 * Migration 0022's tables (issue 20) live in events-schema.ts, 0032's (issue 31)
 * in statements-schema.ts, 0034's (issue 30) in cards-control-schema.ts, 0035's
 * (issue 32) in pay-people-schema.ts.
 */
export interface DB
  extends EventTables,
    ProofTables,
    StatementTables,
    CardsControlTables,
    PayPeopleTables {
  tenants: TenantsTable
  users: UsersTable
  idempotency_keys: IdempotencyKeysTable
  demo_seeds: DemoSeedsTable
  user_profiles: UserProfilesTable
  sessions: SessionsTable
  user_devices: UserDevicesTable
  passkeys: PasskeysTable
  webauthn_challenges: WebauthnChallengesTable
  telegram_biometric_tokens: TelegramBiometricTokensTable
  telegram_init_data_uses: TelegramInitDataUsesTable
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
  counterparties: CounterpartiesTable
  counterparty_destinations: CounterpartyDestinationsTable
  card_programs: CardProgramsTable
  fiat_accounts: FiatAccountsTable
  fiat_account_credits: FiatAccountCreditsTable
  orders: OrdersTable
  order_events: OrderEventsTable
  bank_transfers: BankTransfersTable
  cards: CardsTable
  card_rename_requests: CardRenameRequestsTable
  card_reveals: CardRevealsTable
  card_secret_exchanges: CardSecretExchangesTable
  card_otps: CardOtpsTable
  card_transactions: CardTransactionsTable
  activities: ActivitiesTable
  api_keys: ApiKeysTable
  api_key_secrets: ApiKeySecretsTable
  kyc_verifications: KycVerificationsTable
  kyc_status_history: KycStatusHistoryTable
  kyc_webhook_events: KycWebhookEventsTable
  rate_limit_hits: RateLimitHitsTable
}

export type UserRow = Selectable<UsersTable>
export type NewUser = Insertable<UsersTable>
export type RefreshTokenRow = Selectable<RefreshTokensTable>
