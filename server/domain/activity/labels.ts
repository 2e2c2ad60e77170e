import type { Kysely, Transaction } from 'kysely'
import type { WalletTransaction } from '../../../contract/wallets.ts'
import type { DB } from '../../infra/db/schema.ts'
import { findLabels, type LabelRow } from './repository.ts'

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
