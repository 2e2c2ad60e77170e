/**
 * A statement's and a receipt's words, in every language the app speaks
 * (the tables: statement-words.ts): the labels, each movement in people's
 * words (the same sentences the app's activity feed uses, src/i18n
 * activity.title.*), dates and amounts. Pure: the renderers and the tests
 * share it.
 */
import type { ActivityType } from '../../../contract/activity.ts'
import type { StatementLanguage } from '../../../contract/statements.ts'
import { localDigits } from '../format-amount.ts'
import { isRightToLeft, STATEMENT_WORDS, type StatementWords } from './statement-words.ts'

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

type TitleKey = keyof StatementWords['titles']

const fill = (text: string, values: Record<string, string>) =>
  text.replace(/\{(\w+)\}/g, (whole, name: string) => values[name] ?? whole)

const title = (language: Language, key: TitleKey, values: Record<string, string> = {}) =>
  fill(STATEMENT_WORDS[language].titles[key], values)

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

/** The labels a statement or a receipt is laid out with, in `language`. */
export const labelsOf = (language: Language) => STATEMENT_WORDS[language].labels

export type Labels = StatementWords['labels']

export const label = (text: string, values: Record<string, string>) => fill(text, values)

/** The item's status in a word (a receipt's "Status"), as the app words it. */
export const statusWord = (language: Language, status: keyof StatementWords['statuses']) =>
  STATEMENT_WORDS[language].statuses[status]

// ---------------------------------------------------------------------------
// Money and dates

const MINUS = '\u2212'
const NBSP = '\u00a0'

/**
 * An amount to the minor unit (a statement shows every digit it reconciles
 * to): fiat in Intl's currency style ("€1,234.50", "1 234,50 €"), crypto as
 * grouped digits with the currency's places, trailing zeros trimmed
 * ("0.00101885 BTC"). `signed`: "+" for money in, "−" for money out.
 * In Arabic and Persian a left-to-right island (LRI … PDI), as the app shows
 * amounts: the sign stays before the figures ("+€ 100.00", not "€ 100.00+").
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
  const island = (text: string) => (isRightToLeft(language) ? `\u2066${text}\u2069` : text)
  if (currency.fiat) {
    const format = new Intl.NumberFormat(language, {
      style: 'currency',
      currency: currency.code,
      minimumFractionDigits: currency.decimals,
      maximumFractionDigits: currency.decimals,
    })
    return island(
      `${sign}${format.format(`${whole}.${fraction || '0'}` as Intl.StringNumericLiteral)}`,
    )
  }
  const shown = localDigits(language, whole, fraction.replace(/0+$/, ''))
  return island(`${sign}${shown}${NBSP}${currency.code}`)
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
