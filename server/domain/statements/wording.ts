/**
 * A statement's and a receipt's words, in English and Russian: the labels,
 * each movement in people's words (the same sentences the app's activity feed
 * uses, src/i18n activity.title.*), dates and amounts. Pure: the renderers
 * and the tests share it.
 */
import type { ActivityType } from '../../../contract/activity.ts'
import type { StatementLanguage } from '../../../contract/statements.ts'

export type Language = StatementLanguage

/** What an activity item gives a line to be worded by. */
export interface ItemWords {
  type: ActivityType
  direction: 'in' | 'out' | 'own'
  counterparty_name: string | null
  merchant_name: string | null
  card_last4: string | null
  address: string | null
  fee_kind: string | null
  currency: string
  /** The amount's chain: null for fiat. */
  chain: string | null
  received_currency: string | null
}

const TITLES = {
  en: {
    exchange: 'Exchange {from} → {to}',
    to: 'To {name}',
    send: 'Sent {currency}',
    from: 'From {name}',
    receive: 'Received {currency}',
    transfer: 'Between your wallets',
    bankDeposit: 'Bank transfer in',
    deposit: '{currency} deposit',
    cardPayment: 'Card payment',
    topUpCard: 'Top-up of card ·· {last4}',
    topUp: 'Card account top-up',
    cardReturnOf: 'Back from card ·· {last4}',
    cardReturn: 'Back from a closed card',
    feeIssue: 'Card issue fee',
    feeMonthly: 'Card monthly fee',
    fee: 'Card fee',
    refund: 'Refund: {title}',
    other: 'Other movement ({kind})',
  },
  ru: {
    exchange: 'Обмен {from} → {to}',
    to: '{name}',
    send: 'Отправка {currency}',
    from: '{name}',
    receive: 'Получено {currency}',
    transfer: 'Между вашими кошельками',
    bankDeposit: 'Входящий банковский перевод',
    deposit: 'Пополнение {currency}',
    cardPayment: 'Оплата картой',
    topUpCard: 'Пополнение карты ·· {last4}',
    topUp: 'Пополнение счёта карты',
    cardReturnOf: 'Остаток с карты ·· {last4}',
    cardReturn: 'Остаток с закрытой карты',
    feeIssue: 'Плата за выпуск карты',
    feeMonthly: 'Ежемесячная плата за карту',
    fee: 'Плата за карту',
    refund: 'Возврат: {title}',
    other: 'Прочее движение ({kind})',
  },
} as const

type TitleKey = keyof (typeof TITLES)['en']

const fill = (text: string, values: Record<string, string>) =>
  text.replace(/\{(\w+)\}/g, (whole, name: string) => values[name] ?? whole)

const title = (language: Language, key: TitleKey, values: Record<string, string> = {}) =>
  fill(TITLES[language][key], values)

/** A chain address shortened in the middle ("0x52f1…9a3c"), as the app shows it. */
const shortAddress = (address: string) =>
  address.length <= 14 ? address : `${address.slice(0, 6)}…${address.slice(-4)}`

/** "To Anna Schmidt", "Exchange USDT → BTC", "Netflix": an item as the feed names it. */
export function itemTitle(language: Language, item: ItemWords): string {
  const currency = item.currency
  switch (item.type) {
    case 'exchange':
      return title(language, 'exchange', { from: currency, to: item.received_currency ?? currency })
    case 'send':
      if (item.counterparty_name) return title(language, 'to', { name: item.counterparty_name })
      if (item.address) return title(language, 'to', { name: shortAddress(item.address) })
      return title(language, 'send', { currency })
    case 'receive':
      return item.counterparty_name
        ? title(language, 'from', { name: item.counterparty_name })
        : title(language, 'receive', { currency })
    case 'transfer':
      return title(language, 'transfer')
    case 'deposit':
      if (item.chain === null) {
        return item.counterparty_name
          ? title(language, 'from', { name: item.counterparty_name })
          : title(language, 'bankDeposit')
      }
      return title(language, 'deposit', { currency })
    case 'card_purchase':
      return item.merchant_name ?? title(language, 'cardPayment')
    case 'card_top_up':
      return item.card_last4
        ? title(language, 'topUpCard', { last4: item.card_last4 })
        : title(language, 'topUp')
    case 'card_balance_return':
      return item.card_last4
        ? title(language, 'cardReturnOf', { last4: item.card_last4 })
        : title(language, 'cardReturn')
    case 'fee':
      return item.fee_kind === 'ISSUE'
        ? title(language, 'feeIssue')
        : item.fee_kind === 'MONTHLY'
          ? title(language, 'feeMonthly')
          : title(language, 'fee')
  }
}

/**
 * A statement line: its item's title ("Refund: Café Einstein" for a refund),
 * or, for an entry no item stands for, what the ledger calls it.
 */
export function movementDescription(
  language: Language,
  item: ItemWords | undefined,
  step: { refund: boolean; entryKind: string },
): string {
  if (!item) return title(language, 'other', { kind: step.entryKind })
  const named = itemTitle(language, item)
  return step.refund ? title(language, 'refund', { title: named }) : named
}

// ---------------------------------------------------------------------------
// Labels

export const LABELS = {
  en: {
    statement: 'Account statement',
    receipt: 'Receipt',
    holder: 'Account holder',
    account: 'Account',
    period: 'Period',
    issued: 'Issued',
    wallet: 'Wallet',
    walletTypes: { personal: 'Personal wallet', trading: 'P2P wallet', other: 'Wallet' },
    fiatAccount: 'Euro account ·· {last4}',
    card: 'Card ·· {last4}',
    cardAccount: 'The card’s account: its balance is shared by every card on it.',
    iban: 'IBAN',
    bic: 'BIC',
    bank: 'Bank',
    currency: 'Currency',
    opening: 'Opening balance',
    moneyIn: 'Money in',
    moneyOut: 'Money out',
    closing: 'Closing balance',
    date: 'Date',
    description: 'Description',
    amount: 'Amount',
    balance: 'Balance',
    nothing: 'No money moved in this period.',
    noCurrencies: 'Nothing was held on this account in this period.',
    page: 'Page {page} of {pages}',
    verify: 'Check this statement is genuine: {url} · code {code}',
    times: 'Times are {zone}.',
    // Receipts
    what: 'What',
    status: 'Status',
    when: 'When',
    paid: 'Amount',
    fee: 'Fee',
    total: 'Total',
    received: 'Received',
    rate: 'Rate',
    merchant: 'Merchant',
    counterparty: 'Counterparty',
    address: 'Address',
    reference: 'Reference',
    txHash: 'Transaction hash',
    cardUsed: 'Card',
    id: 'Reference number',
  },
  ru: {
    statement: 'Выписка по счёту',
    receipt: 'Квитанция',
    holder: 'Владелец счёта',
    account: 'Счёт',
    period: 'Период',
    issued: 'Сформирована',
    wallet: 'Кошелёк',
    walletTypes: { personal: 'Личный кошелёк', trading: 'P2P-кошелёк', other: 'Кошелёк' },
    fiatAccount: 'Счёт в евро ·· {last4}',
    card: 'Карта ·· {last4}',
    cardAccount: 'Счёт карты: его остаток общий для всех карт на нём.',
    iban: 'IBAN',
    bic: 'BIC',
    bank: 'Банк',
    currency: 'Валюта',
    opening: 'Входящий остаток',
    moneyIn: 'Поступления',
    moneyOut: 'Списания',
    closing: 'Исходящий остаток',
    date: 'Дата',
    description: 'Описание',
    amount: 'Сумма',
    balance: 'Остаток',
    nothing: 'За этот период движений не было.',
    noCurrencies: 'В этом периоде на счёте ничего не хранилось.',
    page: 'Страница {page} из {pages}',
    verify: 'Проверить подлинность выписки: {url} · код {code}',
    times: 'Время указано в часовом поясе {zone}.',
    what: 'Операция',
    status: 'Статус',
    when: 'Дата и время',
    paid: 'Сумма',
    fee: 'Комиссия',
    total: 'Итого',
    received: 'Зачислено',
    rate: 'Курс',
    merchant: 'Продавец',
    counterparty: 'Контрагент',
    address: 'Адрес',
    reference: 'Назначение',
    txHash: 'Хеш транзакции',
    cardUsed: 'Карта',
    id: 'Номер операции',
  },
} as const

export type Labels = (typeof LABELS)[Language]

export const label = (text: string, values: Record<string, string>) => fill(text, values)

/** The item's status in a word (a receipt's "Status"), as the app words it. */
export const STATUS_WORDS = {
  en: {
    pending: 'In progress',
    complete: 'Complete',
    failed: 'Failed',
    canceled: 'Canceled',
    declined: 'Declined',
    reversed: 'Reversed',
    refunded: 'Refunded',
    authorized: 'Pending',
  },
  ru: {
    pending: 'Выполняется',
    complete: 'Выполнено',
    failed: 'Не выполнено',
    canceled: 'Отменено',
    declined: 'Отклонено',
    reversed: 'Отменён банком',
    refunded: 'Возвращено',
    authorized: 'В обработке',
  },
} as const

// ---------------------------------------------------------------------------
// Money and dates

const MINUS = '\u2212'
const NBSP = '\u00a0'

/**
 * An amount to the minor unit (a statement shows every digit it reconciles
 * to): fiat in Intl's currency style ("€1,234.50", "1 234,50 €"), crypto as
 * grouped digits with the currency's places, trailing zeros trimmed
 * ("0.00101885 BTC"). `signed`: "+" for money in, "−" for money out.
 */
export function formatAmount(
  language: Language,
  minor: bigint,
  currency: { code: string; decimals: number; fiat: boolean },
  options: { signed?: boolean } = {},
): string {
  const negative = minor < 0n
  const digits = (negative ? -minor : minor).toString().padStart(currency.decimals + 1, '0')
  const whole = digits.slice(0, digits.length - currency.decimals) || '0'
  const fraction = digits.slice(digits.length - currency.decimals)
  const sign = negative ? MINUS : options.signed && minor > 0n ? '+' : ''
  if (currency.fiat) {
    const format = new Intl.NumberFormat(language, {
      style: 'currency',
      currency: currency.code,
      minimumFractionDigits: currency.decimals,
      maximumFractionDigits: currency.decimals,
    })
    return `${sign}${format.format(`${whole}.${fraction || '0'}` as Intl.StringNumericLiteral)}`
  }
  const grouped = new Intl.NumberFormat(language).format(BigInt(whole))
  const trimmed = fraction.replace(/0+$/, '')
  const separator = language === 'ru' ? ',' : '.'
  return `${sign}${grouped}${trimmed ? `${separator}${trimmed}` : ''}${NBSP}${currency.code}`
}

/** "12 Mar 2026, 14:05" / "12 мар. 2026 г., 14:05" in the statement's zone. */
export const formatDateTime = (language: Language, at: Date, timeZone: string) =>
  new Intl.DateTimeFormat(language, {
    timeZone,
    day: 'numeric',
    month: 'short',
    year: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
  }).format(at)

/** "12 March 2026" / "12 марта 2026 г." */
export const formatDay = (language: Language, at: Date, timeZone: string) =>
  new Intl.DateTimeFormat(language, {
    timeZone,
    day: 'numeric',
    month: 'long',
    year: 'numeric',
  }).format(at)

/** "2026-03-12": the calendar day of an instant in a zone. */
export function dayIn(at: Date, timeZone: string): string {
  const parts = new Intl.DateTimeFormat('en-CA', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).formatToParts(at)
  const part = (type: string) => parts.find((item) => item.type === type)?.value ?? ''
  return `${part('year')}-${part('month')}-${part('day')}`
}

/** The period as people read it: its first and last calendar day (`to` is exclusive). */
export function periodDays(from: Date, to: Date, timeZone: string) {
  const last = new Date(to.getTime() - 1)
  return { firstDay: dayIn(from, timeZone), lastDay: dayIn(last, timeZone), last }
}

/** "DE89 3704 0044 0532 0130 00": an IBAN in fours. */
export const groupedIban = (iban: string) => iban.match(/.{1,4}/g)?.join(' ') ?? iban
