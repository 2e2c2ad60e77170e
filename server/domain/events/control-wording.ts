/**
 * What the alerts of issue 30 say outside the app (push, the Telegram bot,
 * e-mail), in the person's language: why the card's controls declined a
 * payment, a dispute's step, an auto top-up, a lockdown, and the way out
 * every alert that can mean theft carries. Pure; the words are
 * message-words.ts's, the app's catalogues (src/i18n) say the same events in
 * the same words.
 */
import type { EventKind } from '../../../contract/events.ts'
import {
  MERCHANT_CATEGORIES,
  MERCHANT_CATEGORY_GROUPS,
  type MerchantCategoryGroup,
} from '../../../contract/merchant-categories.ts'
import { lockdownDone } from '../lockdown/rules.ts'
import { type Data, known, type Language, WORDS } from './message-words.ts'

const text = (data: Data, key: string) => String(data[key] ?? '')
/** An amount of the payload, as the feed shows it (messages.ts formatAmount). */
type Money = (key: string, sign?: 'in' | 'out') => string

const categoryName = (data: Data, language: Language) => {
  const group = text(data, 'category')
  return (MERCHANT_CATEGORY_GROUPS as readonly string[]).includes(group)
    ? MERCHANT_CATEGORIES[group as MerchantCategoryGroup].names[language]
    : ''
}

/**
 * Why the card's own controls declined a payment ("Online payments are off
 * for this card"), or undefined for any other decline.
 */
export function controlDeclineLine(data: Data, language: Language): string | undefined {
  const words = WORDS[language]
  switch (text(data, 'reason')) {
    case 'CHANNEL_BLOCKED':
      return known(words.channelsOff, text(data, 'channel')) ?? words.channelOff
    case 'CATEGORY_BLOCKED':
      return words.categoryBlocked(categoryName(data, language))
    case 'COUNTRY_BLOCKED':
      return words.countryBlocked
    case 'MERCHANT_BLOCKED':
      return words.merchantBlocked
    case 'CATEGORY_LIMIT_EXCEEDED':
      return words.categoryLimit(categoryName(data, language))
    default:
      return undefined
  }
}

/** A dispute's step: its title by status, the payment, and what was credited. */
export function disputeMessage(data: Data, language: Language, money: Money) {
  const words = WORDS[language]
  const title = known(words.disputes, text(data, 'status')) ?? words.dispute
  const payment = `${text(data, 'merchant_name')}: ${money('amount')}`
  if (typeof data.credited !== 'string') return { title, body: payment }
  const credited = money('credited', 'in')
  const note =
    data.provisional === true ? words.creditedWhileReviewed(credited) : words.creditedBack(credited)
  return { title, body: `${payment} · ${note}` }
}

/** An auto top-up placed ("+€150.00 · On its way to the card") or why it did not happen. */
export function autoTopUpMessage(kind: EventKind, data: Data, language: Language, money: Money) {
  const words = WORDS[language]
  if (kind === 'card.auto_top_up.placed') {
    return {
      title: words.autoTopUp,
      body: `${money('amount', 'in')} · ${words.autoTopUpOnItsWay}`,
    }
  }
  const why = known(words.autoTopUpFailures, text(data, 'reason')) ?? ''
  return {
    title: words.autoTopUpFailed,
    body: [money('amount'), why].filter(Boolean).join(' · '),
  }
}

export function lockdownMessage(data: Data, language: Language) {
  const words = WORDS[language]
  if (data.state === 'lifted') {
    return { title: words.lockdownLifted, body: words.lockdownLiftedLine }
  }
  return { title: words.lockdownOn, body: lockdownDone(language) }
}

/**
 * Whether an alert can mean theft, so carries the way out ("That wasn't me"):
 * a card payment, a new card, and every security alert but a lockdown begun.
 */
export function carriesWayOut(kind: EventKind, data: Data): boolean {
  if (kind === 'security.lockdown') return data.state === 'lifted'
  return (
    kind.startsWith('security.') ||
    kind === 'card.authorization.approved' ||
    kind === 'card.authorization.declined' ||
    kind === 'card.issued'
  )
}

/** The way out's button, on a push notification and under a bot message. */
export const wayOutButton = (language: Language) => WORDS[language].wayOutButton

/** The way out in an e-mail: a one-time link, good for a day. */
export const wayOutLine = (language: Language, link: string) => WORDS[language].wayOutLine(link)
