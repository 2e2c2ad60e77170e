/** A fiat account's own items in the feed, written in the transaction that credits it. */
import type { Transaction } from 'kysely'
import type { DB } from '../../infra/db/schema.ts'
import { timelineStep } from '../feed/rules.ts'
import * as feed from '../feed/store.ts'

/**
 * A SEPA credit that reached a fiat account's own IBAN: a deposit into the
 * account, from its sender (source: the account's DEPOSIT record).
 */
export async function accountCredited(
  trx: Transaction<DB>,
  credit: {
    id: string
    account: { tenant_id: string; user_id: string; wallet_id: string; id: string }
    recordId: string
    currencyUuid: string
    amountMinor: bigint
    senderName: string | null
    remittance: string | null
    at: Date
  },
): Promise<void> {
  await feed.insertActivity(trx, {
    id: credit.id,
    tenant_id: credit.account.tenant_id,
    user_id: credit.account.user_id,
    wallet_id: credit.account.wallet_id,
    fiat_account_id: credit.account.id,
    currency_uuid: credit.currencyUuid,
    type: 'deposit',
    status: 'complete',
    direction: 'in',
    source_type: 'card_transaction',
    source_id: credit.recordId,
    amount_minor: credit.amountMinor.toString(),
    counterparty_name: credit.senderName,
    reference: credit.remittance,
    timeline: JSON.stringify([timelineStep('complete', 'TRANSFER_RECEIVED', credit.at)]),
    created_at: credit.at,
    updated_at: credit.at,
  })
}
