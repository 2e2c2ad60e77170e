import type { CardChannel } from '../../../contract/card-choices.ts'
import { merchantCategoryOf } from '../../../contract/merchant-categories.ts'
import { fromMinor } from '../../../contract/money.ts'
import type { MoneyTransaction } from '../ledger/money-command.ts'

type CardKind =
  | 'card.authorization.approved'
  | 'card.authorization.declined'
  | 'card.authorization.reversed'
  | 'card.transaction.settled'
  | 'card.transaction.refunded'

/**
 * The card events, written in the card network message's money command: one
 * call per outcome (authorize.ts, clear-reverse-refund.ts), the payload shaped
 * here, by the producer. An authorisation's tell how the card was presented
 * and the merchant's category, so a decline by the card's controls can be
 * worded (issue 30).
 */
export function emitCardEvent(
  money: MoneyTransaction,
  card: { id: string; user_id: string; currency: string; decimals: number },
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
  const owner = { userId: card.user_id, at: payment.at }
  const authorization = {
    ...base,
    channel: payment.channel ?? null,
    category: merchantCategoryOf(payment.merchant?.mcc),
  }
  switch (kind) {
    case 'card.authorization.declined':
      return money.emit({
        ...owner,
        kind,
        payload: { ...authorization, reason: payment.reason ?? '' },
      })
    case 'card.authorization.approved':
      return money.emit({ ...owner, kind, payload: authorization })
    case 'card.authorization.reversed':
    case 'card.transaction.settled':
    case 'card.transaction.refunded':
      return money.emit({ ...owner, kind, payload: base })
  }
}
