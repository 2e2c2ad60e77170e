/**
 * What the alerts of issue 30 say outside the app (push, the Telegram bot,
 * e-mail), in the person's language: why the card's controls declined a
 * payment, a dispute's step, an auto top-up, a lockdown, and the way out
 * every alert that can mean theft carries. Pure; the app words the same
 * events in its catalogues (src/i18n), in the same words.
 */
import type { EventKind } from '../../../contract/events.ts'
import {
  MERCHANT_CATEGORIES,
  MERCHANT_CATEGORY_GROUPS,
  type MerchantCategoryGroup,
} from '../../../contract/merchant-categories.ts'
import { lockdownDone } from '../lockdown/rules.ts'

type Data = Record<string, unknown>
type Language = 'en' | 'ru'
const text = (data: Data, key: string) => String(data[key] ?? '')
/** An amount of the payload, as the feed shows it (messages.ts formatAmount). */
type Money = (key: string, sign?: 'in' | 'out') => string

const CHANNELS: Record<string, { en: string; ru: string }> = {
  online: {
    en: 'Online payments are off for this card',
    ru: 'Оплата в интернете выключена для этой карты',
  },
  contactless: {
    en: 'Contactless payments are off for this card',
    ru: 'Бесконтактная оплата выключена для этой карты',
  },
  chip: {
    en: 'Chip and PIN payments are off for this card',
    ru: 'Оплата по чипу выключена для этой карты',
  },
  magstripe: {
    en: 'Magnetic stripe payments are off for this card',
    ru: 'Оплата по магнитной полосе выключена для этой карты',
  },
  atm: {
    en: 'ATM withdrawals are off for this card',
    ru: 'Снятие наличных в банкоматах выключено для этой карты',
  },
}

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
  const ru = language === 'ru'
  switch (text(data, 'reason')) {
    case 'CHANNEL_BLOCKED': {
      const channel = CHANNELS[text(data, 'channel')]
      if (channel) return channel[language]
      return ru
        ? 'Этот способ оплаты выключен для карты'
        : 'This way of paying is off for this card'
    }
    case 'CATEGORY_BLOCKED':
      return ru
        ? `Категория «${categoryName(data, language)}» заблокирована для этой карты`
        : `${categoryName(data, language)} is blocked on this card`
    case 'COUNTRY_BLOCKED':
      return ru
        ? 'Оплата в этой стране выключена для карты'
        : 'Payments in this country are off for this card'
    case 'MERCHANT_BLOCKED':
      return ru ? 'Этот продавец заблокирован для карты' : 'This merchant is blocked on this card'
    case 'CATEGORY_LIMIT_EXCEEDED':
      return ru
        ? `Превышен лимит на категорию «${categoryName(data, language)}»`
        : `Over this card’s limit for ${categoryName(data, language)}`
    default:
      return undefined
  }
}

const DISPUTE_TITLES: Record<string, { en: string; ru: string }> = {
  SUBMITTED: { en: 'Dispute sent', ru: 'Спор отправлен' },
  UNDER_REVIEW: { en: 'Dispute under review', ru: 'Спор на рассмотрении' },
  WON: { en: 'Dispute won', ru: 'Спор выигран' },
  LOST: { en: 'Dispute lost', ru: 'Спор проигран' },
}

/** A dispute's step: its title by status, the payment, and what was credited. */
export function disputeMessage(data: Data, language: Language, money: Money) {
  const ru = language === 'ru'
  const title = DISPUTE_TITLES[text(data, 'status')]?.[language] ?? (ru ? 'Спор' : 'Dispute')
  const payment = `${text(data, 'merchant_name')}: ${money('amount')}`
  if (typeof data.credited !== 'string') return { title, body: payment }
  const credited = money('credited', 'in')
  const note =
    data.provisional === true
      ? ru
        ? `${credited} на время проверки`
        : `${credited} while it is reviewed`
      : ru
        ? `${credited} возвращено`
        : `${credited} back to you`
  return { title, body: `${payment} · ${note}` }
}

const TOP_UP_FAILURES: Record<string, { en: string; ru: string }> = {
  INSUFFICIENT_FUNDS: { en: 'not enough in the wallet', ru: 'в кошельке недостаточно денег' },
  DAILY_CAP_REACHED: { en: 'today’s cap is used up', ru: 'дневной лимит исчерпан' },
  RATES_UNAVAILABLE: { en: 'no exchange rate right now', ru: 'сейчас нет курса обмена' },
  QUOTE_REFUSED: {
    en: 'the amount is outside what we can move',
    ru: 'сумма вне допустимых пределов',
  },
  ACCOUNT_UNAVAILABLE: {
    en: 'the account or wallet is unavailable',
    ru: 'счёт или кошелёк недоступен',
  },
  KYC_REQUIRED: { en: 'verify your identity first', ru: 'сначала подтвердите личность' },
}

/** An auto top-up placed ("+€150.00 · On its way to the card") or why it did not happen. */
export function autoTopUpMessage(kind: EventKind, data: Data, language: Language, money: Money) {
  const ru = language === 'ru'
  if (kind === 'card.auto_top_up.placed') {
    return {
      title: ru ? 'Автопополнение карты' : 'Card auto top-up',
      body: `${money('amount', 'in')} · ${ru ? 'в пути на карту' : 'on its way to the card'}`,
    }
  }
  const why = TOP_UP_FAILURES[text(data, 'reason')]?.[language] ?? ''
  return {
    title: ru ? 'Автопополнение не удалось' : 'Auto top-up didn’t happen',
    body: [money('amount'), why].filter(Boolean).join(' · '),
  }
}

export function lockdownMessage(data: Data, language: Language) {
  const ru = language === 'ru'
  if (data.state === 'lifted') {
    return {
      title: ru ? 'Блокировка снята' : 'Lockdown lifted',
      body: ru
        ? 'Карты остаются замороженными: размораживайте их по одной.'
        : 'Your cards stay frozen: unfreeze them one by one.',
    }
  }
  return {
    title: ru ? 'Блокировка включена' : 'Lockdown on',
    body: lockdownDone(language),
  }
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
export const wayOutButton = (language: Language) =>
  language === 'ru' ? 'Это не я — заблокировать' : 'That wasn’t me — lock'

/** The way out in an e-mail: a one-time link, good for a day. */
export const wayOutLine = (language: Language, link: string) =>
  language === 'ru'
    ? `Это были не вы? Заблокируйте аккаунт одним нажатием (ссылка действует 24 часа): ${link}`
    : `Wasn’t you? Lock your account in one tap (the link works for 24 hours): ${link}`
