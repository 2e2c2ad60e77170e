/**
 * Pure rules of the transaction history: which filters make sense, and how a
 * record is written as one RFC 4180 CSV line. No IO here.
 */
import type { WalletTransaction } from '../../../contract/wallets.ts'
import { isUuid } from '../../infra/uuid.ts'
import { csvRecord } from '../csv.ts'
import { TransactionError } from './errors.ts'

/**
 * `from` is inclusive and `to` exclusive, so `from == to` is a valid, empty
 * range; only a range that runs backwards is a mistake.
 * @throws TransactionError INVALID_DATE_RANGE when `from` is after `to`
 */
export function checkDateRange(range: { from?: string; to?: string }): void {
  if (range.from === undefined || range.to === undefined) return
  if (Date.parse(range.from) > Date.parse(range.to))
    throw new TransactionError({ kind: 'INVALID_DATE_RANGE' })
}

/**
 * `currency=` names one currency by uuid, or every currency with that code in
 * any letter case: `usdt` is USDT on all its chains.
 */
export function currencyFilter(value: string): { uuid: string } | { code: string } {
  const trimmed = value.trim()
  return isUuid(trimmed) ? { uuid: trimmed.toLowerCase() } : { code: trimmed.toUpperCase() }
}

/** The CSV's columns, in order; the header row is exactly these names. */
export const CSV_COLUMNS = [
  'uuid',
  'created_at',
  'type',
  'method',
  'record_type',
  'status',
  'currency',
  'chain',
  'amount',
  'address',
  'tx_hash',
  'confirmations',
  // Issue 14: what the record belongs to, at the end so older readers keep their columns.
  'activity_id',
  'activity_type',
  'counterparty_name',
  'merchant',
  'from_currency',
  'to_currency',
  'card_last4',
] as const satisfies readonly (keyof WalletTransaction)[]

export const csvHeader = () => csvRecord(CSV_COLUMNS)

export const csvTransaction = (transaction: WalletTransaction) =>
  csvRecord(CSV_COLUMNS.map((column) => transaction[column]))

/** `transactions-<wallet>-<YYYY-MM-DD>.csv`: only uuid and date characters, so no quoting issue. */
export const csvFilename = (walletId: string, now: Date) =>
  `transactions-${walletId}-${now.toISOString().slice(0, 10)}.csv`
