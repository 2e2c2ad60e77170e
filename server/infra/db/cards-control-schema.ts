import type { ColumnType } from 'kysely'
import type { AutoTopUpFailure } from '../../../contract/auto-top-up.ts'
import type { DisputeReason, DisputeStatus } from '../../../contract/card-choices.ts'
import type { LockdownVia } from '../../../contract/lockdown.ts'

/** The tables of migration 0034 (issue 30: cards people control), joined into `DB` in schema.ts. */

type CreatedAt = ColumnType<Date, Date | undefined, Date>
type Minor = ColumnType<string, string, string>
type Optional<T> = ColumnType<T | null, T | null | undefined, T | null>

export interface LockdownsTable {
  id: string
  tenant_id: string
  user_id: string
  reason: string | null
  via: LockdownVia
  cards_frozen: number
  sessions_ended: number
  started_at: Date
  lifted_at: Optional<Date>
  lifted_by_session_id: Optional<string>
}

/** One one-tap lockdown token spent (domain/lockdown/links.ts): its nonce, once. */
export interface LockdownLinkUsesTable {
  nonce: string
  user_id: string
  used_at: CreatedAt
}

export interface CardDisputesTable {
  id: string
  tenant_id: string
  user_id: string
  card_id: string
  /** The disputed payment's authorisation. */
  transaction_id: string
  reason: DisputeReason
  details: string
  status: DisputeStatus
  currency_uuid: string
  amount_minor: Minor
  credited_minor: Optional<string>
  credit_provisional: ColumnType<boolean, boolean | undefined, boolean>
  /** The ledger entry of the credit (a lost fraud claim's is reversed). */
  credit_entry_id: Optional<string>
  credited_at: Optional<Date>
  activity_id: string | null
  created_at: CreatedAt
  updated_at: CreatedAt
}

export interface CardAutoTopUpsTable {
  fiat_account_id: string
  tenant_id: string
  user_id: string
  enabled: boolean
  below_minor: Optional<string>
  top_up_to_minor: Optional<string>
  daily_cap_minor: Optional<string>
  from_wallet_id: Optional<string>
  from_currency_uuid: Optional<string>
  updated_at: CreatedAt
}

export type AutoTopUpRunStatus = 'PENDING' | 'PLACED' | 'FAILED'

/** One auto top-up, keyed by the clearing that left the account low: once per clearing. */
export interface CardAutoTopUpRunsTable {
  clearing_id: string
  tenant_id: string
  user_id: string
  fiat_account_id: string
  status: AutoTopUpRunStatus
  amount_minor: Optional<string>
  order_id: Optional<string>
  failure: Optional<AutoTopUpFailure>
  created_at: CreatedAt
  updated_at: CreatedAt
}

export interface CardsControlTables {
  lockdowns: LockdownsTable
  lockdown_link_uses: LockdownLinkUsesTable
  card_disputes: CardDisputesTable
  card_auto_top_ups: CardAutoTopUpsTable
  card_auto_top_up_runs: CardAutoTopUpRunsTable
}
