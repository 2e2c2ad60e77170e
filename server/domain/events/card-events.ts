import type { Transaction } from 'kysely'
import type { CardChannel } from '../../../contract/card-choices.ts'
import { merchantCategoryOf } from '../../../contract/merchant-categories.ts'
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
 * An authorisation's tell how the card was presented and the merchant's
 * category, so a decline by the card's controls can be worded (issue 30).
 */
export function emitCardEvent(
  trx: Transaction<DB>,
  card: { id: string; tenant_id: string; user_id: string; currency: string; decimals: number },
  kind: CardKind,
  payment: {
    transactionId: string
    amountMinor: bigint
    merchant: { name: string; mcc?: string } | null
    reason?: string | null
    /** An authorisation's channel. */
    channel?: CardChannel
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
  const authorization = {
    ...base,
    channel: payment.channel ?? null,
    category: merchantCategoryOf(payment.merchant?.mcc),
  }
  switch (kind) {
    case 'card.authorization.declined':
      return emitEvent(trx, {
        ...owner,
        kind,
        payload: { ...authorization, reason: payment.reason ?? '' },
      })
    case 'card.authorization.approved':
      return emitEvent(trx, { ...owner, kind, payload: authorization })
    case 'card.transaction.settled':
    case 'card.transaction.refunded':
      return emitEvent(trx, { ...owner, kind, payload: base })
  }
}
