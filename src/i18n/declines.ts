import type { CardChannel } from '../../contract/card-choices.ts'
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
  CHANNEL_BLOCKED: 'cards.tx.declined.CHANNEL_BLOCKED',
  CATEGORY_BLOCKED: 'cards.tx.declined.CATEGORY_BLOCKED',
  COUNTRY_BLOCKED: 'cards.tx.declined.COUNTRY_BLOCKED',
  MERCHANT_BLOCKED: 'cards.tx.declined.MERCHANT_BLOCKED',
  CATEGORY_LIMIT_EXCEEDED: 'cards.tx.declined.CATEGORY_LIMIT_EXCEEDED',
}

/** A channel the card's controls turned off, as the decline says it (issue 30). */
const CHANNELS: Record<CardChannel, MessageKey> = {
  online: 'cards.tx.declined.channel.online',
  contactless: 'cards.tx.declined.channel.contactless',
  chip: 'cards.tx.declined.channel.chip',
  magstripe: 'cards.tx.declined.channel.magstripe',
  atm: 'cards.tx.declined.channel.atm',
}

const LIMITS: Record<CardLimitKind, MessageKey> = {
  per_transaction: 'cards.tx.declined.limit.per_transaction',
  daily: 'cards.tx.declined.limit.daily',
  monthly: 'cards.tx.declined.limit.monthly',
}

const known = <T extends string>(table: Record<T, MessageKey>, code: string | null | undefined) =>
  code && Object.hasOwn(table, code) ? table[code as T] : undefined

/**
 * A decline's reason in words, naming the limit it went over, or the channel
 * the card's controls turned off, when it says which; a reason this version
 * does not know (or none) reads "Declined".
 */
export function declineWords(
  t: Translate,
  reason: string | null | undefined,
  limit?: string | null,
  channel?: string | null,
): string {
  if (reason === 'LIMIT_EXCEEDED') {
    const over = known(LIMITS, limit)
    if (over) return t(over)
  }
  if (reason === 'CHANNEL_BLOCKED') {
    const off = known(CHANNELS, channel)
    if (off) return t(off)
  }
  return t(known(DECLINES, reason) ?? 'cards.tx.declined')
}
