import type { Transaction } from 'kysely'
import { v7 as uuidv7 } from 'uuid'
import type { DB } from '../../infra/db/schema.ts'
import { findAccountHolder, insertOwnRecord } from '../fiat-accounts/account-records.ts'

/**
 * A top-up's DEPOSIT on a fiat account (no card: the money is the account's),
 * written in the caller's transaction beside its ledger entry. One per
 * operation (the order): a repeat writes nothing.
 */
export async function recordDeposit(
  trx: Transaction<DB>,
  deposit: {
    fiatAccountId: string
    operationId: string
    amountMinor: bigint
    /** The top-up's (or credit's) activity item. */
    activityId: string | null
    at: Date
    /** The record's id, when the caller needs it before (its activity item's source). */
    id?: string
  },
): Promise<void> {
  const account = await findAccountHolder(trx, deposit.fiatAccountId)
  if (!account) throw new Error(`fiat account ${deposit.fiatAccountId} not found`)
  await insertOwnRecord(trx, {
    id: deposit.id ?? uuidv7(),
    tenantId: account.tenant_id,
    userId: account.user_id,
    cardId: null,
    fiatAccountId: account.id,
    walletId: account.wallet_id,
    currencyUuid: account.currency_uuid,
    amountMinor: deposit.amountMinor,
    type: 'DEPOSIT',
    status: 'SETTLED',
    operationId: deposit.operationId,
    activityId: deposit.activityId,
    at: deposit.at,
  })
}
