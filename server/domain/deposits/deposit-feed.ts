/**
 * A crypto deposit's item in the feed, written in the transaction that sees
 * or confirms it: pending from the moment it is seen, found again by its
 * wallet record, so a step repeated after a crash changes nothing twice.
 */
import type { Transaction } from 'kysely'
import type { TransactionStatus } from '../../../contract/wallets.ts'
import type { DB } from '../../infra/db/schema.ts'
import { depositActivityStatus, timelineStep } from '../feed/rules.ts'
import * as feed from '../feed/store.ts'

type Trx = Transaction<DB>

export interface CryptoDeposit {
  /** The item's id, chosen by the caller (its record refers to it). */
  id: string
  tenantId: string
  userId: string
  walletId: string
  /** The deposit's wallet record. */
  recordId: string
  currencyUuid: string
  amountMinor: bigint
  address: string
  txHash: string
  at: Date
}

/** A deposit seen arriving at one of the wallet's addresses. */
export async function cryptoDepositDetected(trx: Trx, deposit: CryptoDeposit): Promise<void> {
  await feed.insertActivity(trx, {
    id: deposit.id,
    tenant_id: deposit.tenantId,
    user_id: deposit.userId,
    type: 'deposit',
    status: 'pending',
    direction: 'in',
    source_type: 'wallet_transaction',
    source_id: deposit.recordId,
    wallet_id: deposit.walletId,
    currency_uuid: deposit.currencyUuid,
    amount_minor: deposit.amountMinor.toString(),
    address: deposit.address,
    tx_hash: deposit.txHash,
    confirmations: 0,
    timeline: JSON.stringify([timelineStep('pending', 'DETECTED', deposit.at)]),
    created_at: deposit.at,
    updated_at: deposit.at,
  })
}

/** One more block for a deposit; CONFIRMED on its timeline when it completes. */
export async function cryptoDepositProgress(
  trx: Trx,
  progress: {
    tenantId: string
    recordId: string
    status: TransactionStatus
    confirmations: number
    required: number
    at: Date
  },
): Promise<void> {
  const status = depositActivityStatus(progress.status)
  await feed.updateBySource(
    trx,
    {
      tenant_id: progress.tenantId,
      source_type: 'wallet_transaction',
      source_id: progress.recordId,
    },
    {
      status,
      confirmations: progress.confirmations,
      required_confirmations: progress.required,
      updated_at: progress.at,
    },
    status === 'complete' ? timelineStep(status, 'CONFIRMED', progress.at) : undefined,
  )
}
