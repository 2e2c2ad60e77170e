/**
 * A card's own items in the feed: the program's fees and what was left on a
 * closed stand-alone card, each written in the transaction that moves it.
 */
import type { Transaction } from 'kysely'
import type { CardFeeKind } from '../../../contract/card-transactions.ts'
import type { DB } from '../../infra/db/schema.ts'
import { timelineStep } from '../feed/rules.ts'
import * as feed from '../feed/store.ts'

type Trx = Transaction<DB>

/**
 * A card program's fee: from the card's account (source: its FEE card
 * transaction) or, for a stand-alone card's issue fee, from the wallet
 * (source: the card). A monthly fee the account could not pay is declined.
 */
export async function cardFeeCharged(
  trx: Trx,
  fee: {
    id: string
    card: feed.CardRef
    source: { type: 'card_transaction' | 'card'; id: string }
    feeKind: CardFeeKind
    amountMinor: bigint
    paid: boolean
    at: Date
  },
): Promise<void> {
  const status = fee.paid ? 'complete' : 'declined'
  await feed.insertActivity(trx, {
    id: fee.id,
    ...(await feed.onCard(trx, fee.card)),
    type: 'fee',
    status,
    direction: 'out',
    source_type: fee.source.type,
    source_id: fee.source.id,
    amount_minor: fee.amountMinor.toString(),
    fee_kind: fee.feeKind,
    failure_code: fee.paid ? null : 'INSUFFICIENT_FUNDS',
    timeline: JSON.stringify([timelineStep(status, fee.paid ? 'CHARGED' : 'DECLINED', fee.at)]),
    created_at: fee.at,
    updated_at: fee.at,
  })
}

/** What was left on a closed stand-alone card, back in the wallet. */
export async function cardBalanceReturned(
  trx: Trx,
  returned: { id: string; card: feed.CardRef; amountMinor: bigint; at: Date },
): Promise<void> {
  await feed.insertActivity(trx, {
    id: returned.id,
    ...(await feed.onCard(trx, returned.card)),
    type: 'card_balance_return',
    status: 'complete',
    direction: 'in',
    source_type: 'card',
    source_id: returned.card.id,
    amount_minor: returned.amountMinor.toString(),
    timeline: JSON.stringify([timelineStep('complete', 'RETURNED', returned.at)]),
    created_at: returned.at,
    updated_at: returned.at,
  })
}
