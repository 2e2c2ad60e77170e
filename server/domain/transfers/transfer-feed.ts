/**
 * A transfer between people in the feed (issue 32): one item each, in each
 * person's words, written in the transaction that moves it; a claimable
 * transfer's item waits, then completes or fails when it ends.
 */
import type { Transaction } from 'kysely'
import type { DB } from '../../infra/db/schema.ts'
import { timelineStep } from '../feed/rules.ts'
import * as feed from '../feed/store.ts'

type Trx = Transaction<DB>

export interface PersonTransfer {
  tenantId: string
  transferId: string
  currencyUuid: string
  amountMinor: bigint
  note: string | null
  at: Date
}

/**
 * The sender's item: "To Anna S." — complete, or pending while it waits for
 * its contact to sign up (then named by the contact the sender typed).
 */
export async function transferSent(
  trx: Trx,
  sent: PersonTransfer & {
    id: string
    userId: string
    walletId: string
    recipientName: string
    awaitingClaim: boolean
  },
): Promise<string> {
  const status = sent.awaitingClaim ? 'pending' : 'complete'
  return feed.insertActivity(trx, {
    id: sent.id,
    tenant_id: sent.tenantId,
    user_id: sent.userId,
    type: 'send',
    status,
    direction: 'out',
    source_type: 'transfer',
    source_id: sent.transferId,
    wallet_id: sent.walletId,
    currency_uuid: sent.currencyUuid,
    amount_minor: sent.amountMinor.toString(),
    counterparty_name: sent.recipientName,
    note: sent.note,
    timeline: JSON.stringify([
      timelineStep(status, sent.awaitingClaim ? 'AWAITING_CLAIM' : 'SENT', sent.at),
    ]),
    created_at: sent.at,
    updated_at: sent.at,
  })
}

/** The recipient's item: "From Mia W.", with the sender's note. */
export async function transferReceived(
  trx: Trx,
  received: PersonTransfer & { id: string; userId: string; walletId: string; senderName: string },
): Promise<string> {
  return feed.insertActivity(trx, {
    id: received.id,
    tenant_id: received.tenantId,
    user_id: received.userId,
    type: 'receive',
    status: 'complete',
    direction: 'in',
    source_type: 'transfer',
    source_id: received.transferId,
    wallet_id: received.walletId,
    currency_uuid: received.currencyUuid,
    amount_minor: received.amountMinor.toString(),
    counterparty_name: received.senderName,
    note: received.note,
    timeline: JSON.stringify([timelineStep('complete', 'DELIVERED_TO_WALLET', received.at)]),
    created_at: received.at,
    updated_at: received.at,
  })
}

/**
 * A claimable transfer ended: claimed (the sender's item completes, named
 * now as the recipient shows themselves) or back with the sender (failed,
 * NOT_CLAIMED). Answers the sender's item.
 */
export async function transferSettled(
  trx: Trx,
  settled: { tenantId: string; transferId: string; at: Date } & (
    | { outcome: 'claimed'; recipientName: string }
    | { outcome: 'returned' }
  ),
): Promise<string> {
  const ref = {
    tenant_id: settled.tenantId,
    source_type: 'transfer',
    source_id: settled.transferId,
    type: 'send',
  } as const
  const item = await feed.findBySource(trx, ref)
  if (!item) throw new Error(`transfer ${settled.transferId} has no activity`)
  if (settled.outcome === 'claimed') {
    await feed.updateBySource(
      trx,
      ref,
      { status: 'complete', counterparty_name: settled.recipientName, updated_at: settled.at },
      timelineStep('complete', 'CLAIMED', settled.at),
    )
  } else {
    await feed.updateBySource(
      trx,
      ref,
      { status: 'failed', failure_code: 'NOT_CLAIMED', updated_at: settled.at },
      timelineStep('failed', 'RETURNED', settled.at),
    )
  }
  return item.id
}
