import type { CardLimitKind, DeclineReason } from '../../contract/card-transactions.ts'
import type { MessageKey } from './en.ts'
import type { Translate } from './i18n.tsx'

/*
 * Why a card payment was declined, as the card's history, the activity item
 * and the notification centre all say it. Type imports only: the contract's
 * module builds TypeBox schemas as it loads (contract/README.md).
 */

const DECLINES: Record<DeclineReason, MessageKey> = {
  CARD_FROZEN: 'cards.tx.declined.CARD_FROZEN',
  CARD_BLOCKED: 'cards.tx.declined.CARD_BLOCKED',
  CARD_INACTIVE: 'cards.tx.declined.CARD_INACTIVE',
  CARD_CANCELED: 'cards.tx.declined.CARD_CANCELED',
  CARD_CLOSED: 'cards.tx.declined.CARD_CLOSED',
  ACCOUNT_UNAVAILABLE: 'cards.tx.declined.ACCOUNT_UNAVAILABLE',
  LIMIT_EXCEEDED: 'cards.tx.declined.LIMIT_EXCEEDED',
  INSUFFICIENT_FUNDS: 'cards.tx.declined.INSUFFICIENT_FUNDS',
  THREE_DS_FAILED: 'cards.tx.declined.THREE_DS_FAILED',
}

const LIMITS: Record<CardLimitKind, MessageKey> = {
  per_transaction: 'cards.tx.declined.limit.per_transaction',
  daily: 'cards.tx.declined.limit.daily',
  monthly: 'cards.tx.declined.limit.monthly',
}

const known = <T extends string>(table: Record<T, MessageKey>, code: string | null | undefined) =>
  code && Object.hasOwn(table, code) ? table[code as T] : undefined

/**
 * A decline's reason in words, naming the limit it went over when it says
 * which; a reason this version does not know (or none) reads "Declined".
 */
export function declineWords(
  t: Translate,
  reason: string | null | undefined,
  limit?: string | null,
): string {
  if (reason === 'LIMIT_EXCEEDED') {
    const over = known(LIMITS, limit)
    if (over) return t(over)
  }
  return t(known(DECLINES, reason) ?? 'cards.tx.declined')
}
