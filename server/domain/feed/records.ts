/**
 * A wallet record as the API shows it, with what its feed item says of it:
 * every area that writes or reads records answers with toTransaction.
 */
import type { Kysely, Selectable, Transaction } from 'kysely'
import { fromMinor } from '../../../contract/money.ts'
import type { WalletTransaction } from '../../../contract/wallets.ts'
import type { CurrenciesTable, DB, WalletTransactionsTable } from '../../infra/db/schema.ts'
import { findLabels, type LabelRow } from './store.ts'

/** What a wallet record carries of its activity item, so a client can word it on its own. */
export type RecordLabel = Pick<
  WalletTransaction,
  | 'activity_type'
  | 'counterparty_name'
  | 'merchant'
  | 'from_currency'
  | 'to_currency'
  | 'card_last4'
>

/** A record no item stands for (written before the feed existed and not backfilled). */
export const NO_LABEL: RecordLabel = {
  activity_type: null,
  counterparty_name: null,
  merchant: null,
  from_currency: null,
  to_currency: null,
  card_last4: null,
}

const labelOf = (row: LabelRow): RecordLabel => ({
  activity_type: row.type,
  counterparty_name: row.counterparty_name,
  merchant: row.merchant_name,
  // Both sides only for a movement between the person's own balances ("USDT → BTC").
  from_currency: row.direction === 'own' ? row.currency : null,
  to_currency: row.direction === 'own' ? row.received_currency : null,
  card_last4: row.card_last4,
})

/**
 * The labels of the items these records belong to, by item id: one indexed
 * read for a page of records, whatever its size.
 */
export async function recordLabels(
  db: Kysely<DB> | Transaction<DB>,
  tenantId: string,
  records: readonly { activity_id: string | null }[],
): Promise<ReadonlyMap<string, RecordLabel>> {
  const ids = [
    ...new Set(records.flatMap((record) => (record.activity_id ? [record.activity_id] : []))),
  ]
  const rows = await findLabels(db, tenantId, ids)
  return new Map(rows.map((row) => [row.id, labelOf(row)]))
}

export const labelFor = (
  labels: ReadonlyMap<string, RecordLabel>,
  record: { activity_id: string | null },
): RecordLabel => (record.activity_id && labels.get(record.activity_id)) || NO_LABEL

/** The columns a record needs to be shown: its row with the currency joined. */
export type RecordRow = Pick<
  Selectable<WalletTransactionsTable>,
  | 'id'
  | 'wallet_id'
  | 'type'
  | 'method'
  | 'record_type'
  | 'status'
  | 'currency_uuid'
  | 'amount_minor'
  | 'address'
  | 'tx_hash'
  | 'confirmations'
  | 'created_at'
  | 'updated_at'
  | 'activity_id'
> &
  Pick<Selectable<CurrenciesTable>, 'chain' | 'decimals'> & { currency: string }

/** A record (currency joined) as the API shows it, with what its activity item says of it. */
export const toTransaction = (
  row: RecordRow,
  label: RecordLabel = NO_LABEL,
): WalletTransaction => ({
  uuid: row.id,
  wallet_uuid: row.wallet_id,
  type: row.type,
  method: row.method,
  record_type: row.record_type,
  status: row.status,
  currency_uuid: row.currency_uuid,
  currency: row.currency,
  chain: row.chain,
  amount: fromMinor(BigInt(row.amount_minor), row.decimals),
  address: row.address,
  tx_hash: row.tx_hash,
  confirmations: row.confirmations,
  created_at: row.created_at.toISOString(),
  updated_at: row.updated_at.toISOString(),
  activity_id: row.activity_id,
  ...label,
})

/** One record as the API shows it, its label read on its own. */
export const labelledRecord = async (
  db: Kysely<DB> | Transaction<DB>,
  tenantId: string,
  row: RecordRow,
): Promise<WalletTransaction> =>
  toTransaction(row, labelFor(await recordLabels(db, tenantId, [row]), row))
