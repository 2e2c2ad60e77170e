import type { ColumnType } from 'kysely'
import type { PaymentRequestStatus } from '../../../contract/payment-requests.ts'
import type { ScheduleKind, ScheduleRunStatus } from '../../../contract/schedules.ts'
import type { ContactChannel, TransferStatus } from '../../../contract/transfers.ts'

/** The tables of migration 0035 (issue 32: people pay people), joined into `DB` in schema.ts. */

type CreatedAt = ColumnType<Date, Date | undefined, Date>
type Json<T> = ColumnType<T, string, string>
type Optional<T> = ColumnType<T | null, T | null | undefined, T | null>
type Minor = ColumnType<string, string, string>

export interface TransfersTable {
  id: string
  tenant_id: string
  sender_id: string
  sender_wallet_id: string
  /** Null while the transfer waits for its contact to sign up. */
  recipient_id: Optional<string>
  recipient_wallet_id: Optional<string>
  currency_uuid: string
  amount_minor: Minor
  note: Optional<string>
  status: TransferStatus
  contact_channel: Optional<ContactChannel>
  /** Normalised (transfers/rules.ts addresseeOf). */
  contact: Optional<string>
  recipient_name: string
  sender_name: string
  payment_request_id: Optional<string>
  expires_at: Optional<Date>
  created_at: CreatedAt
  settled_at: Optional<Date>
}

export interface PaymentRequestsTable {
  id: string
  tenant_id: string
  requester_id: string
  wallet_id: string
  currency_uuid: string
  amount_minor: Minor
  note: Optional<string>
  /** EXPIRED is never stored: an OPEN request past expires_at reads so. */
  status: ColumnType<
    Exclude<PaymentRequestStatus, 'EXPIRED'>,
    'OPEN' | undefined,
    Exclude<PaymentRequestStatus, 'EXPIRED'>
  >
  expires_at: Optional<Date>
  payer_id: Optional<string>
  transfer_id: Optional<string>
  paid_at: Optional<Date>
  created_at: CreatedAt
}

export type StoredScheduleStatus = 'ACTIVE' | 'PAUSED' | 'ENDED' | 'DELETED'

export interface SchedulesTable {
  id: string
  tenant_id: string
  user_id: string
  kind: ScheduleKind
  /** The kind's template (contract/schedules.ts), as the person gave it. */
  template: Json<Record<string, unknown>>
  rrule: string
  starts_at: Date
  ends_at: Optional<Date>
  time_zone: string
  max_slippage_bps: Optional<number>
  reference_rate: Optional<string>
  status: ColumnType<StoredScheduleStatus, StoredScheduleStatus | undefined, StoredScheduleStatus>
  next_run_at: Optional<Date>
  created_at: CreatedAt
  updated_at: CreatedAt
}

export interface ScheduleRunsTable {
  id: string
  tenant_id: string
  schedule_id: string
  occurrence_at: Date
  status: ColumnType<ScheduleRunStatus, ScheduleRunStatus | undefined, ScheduleRunStatus>
  reason: Optional<string>
  order_id: Optional<string>
  transfer_id: Optional<string>
  created_at: CreatedAt
  finished_at: Optional<Date>
}

export interface PayPeopleTables {
  transfers: TransfersTable
  payment_requests: PaymentRequestsTable
  schedules: SchedulesTable
  schedule_runs: ScheduleRunsTable
}
