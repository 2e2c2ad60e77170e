import type { Transaction } from 'kysely'
import { fromMinor } from '../../../contract/money.ts'
import type { DB } from '../../infra/db/schema.ts'
import { emitEvent } from '../outbox.ts'

type CardKind =
  | 'card.authorization.approved'
  | 'card.authorization.declined'
  | 'card.transaction.settled'
  | 'card.transaction.refunded'

/**
 * The card events, written in the card network message's transaction: one
 * call per outcome (card-transactions/service.ts), the payload shaped here.
 */
export function emitCardEvent(
  trx: Transaction<DB>,
  card: { id: string; tenant_id: string; user_id: string; currency: string; decimals: number },
  kind: CardKind,
  payment: {
    transactionId: string
    amountMinor: bigint
    merchant: { name: string } | null
    reason?: string | null
    /** When the network's message was handled. */
    at: Date
  },
) {
  const base = {
    card_id: card.id,
    transaction_id: payment.transactionId,
    amount: fromMinor(payment.amountMinor, card.decimals),
    currency: card.currency,
    merchant_name: payment.merchant?.name ?? '',
  }
  const owner = { tenantId: card.tenant_id, userId: card.user_id, at: payment.at }
  if (kind === 'card.authorization.declined') {
    return emitEvent(trx, { ...owner, kind, payload: { ...base, reason: payment.reason ?? '' } })
  }
  return emitEvent(trx, { ...owner, kind, payload: base })
}
