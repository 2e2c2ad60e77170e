import type {
  ActivityEventCode,
  ActivityItem,
  ActivityStatus,
  ActivityType,
} from '../../../contract/activity.ts'
import { shortAddress } from '../../../contract/display-rules.ts'
import { ORDER_EVENT_CODES } from '../../../contract/order-event-codes.ts'
import type { MoneySide } from '../../../contract/orders.ts'
import { formatLocale } from '../../i18n/digits.ts'
import type { MessageKey } from '../../i18n/en.ts'
import type { Language, Translate } from '../../i18n/i18n.tsx'
import { formatMoney, type MoneySign } from '../../i18n/money.ts'

/*
 * An activity item in people's words (docs/experience.md, "People's words, not the
 * ledger's"): what it is called, how it stands, which amounts it shows with
 * which sign and tone, its picture, and the day it belongs to. Pure: the row,
 * the detail page and the tests share it.
 */

/** What a feed is of: everything, one wallet, or a card and its account. */
export interface Perspective {
  /** A wallet's feed: a movement between two wallets is in or out as seen from this one. */
  wallet?: string
  /** A card's or a fiat account's feed: a top-up is money in. */
  account?: boolean
}

/** "To Anna Schmidt", "Exchange USDT → BTC", "Netflix". */
export function activityTitle(t: Translate, item: ActivityItem): string {
  const currency = item.amount.currency
  switch (item.type) {
    case 'exchange':
      return t('activity.title.exchange', {
        from: currency,
        to: item.received?.currency ?? currency,
      })
    case 'send':
      if (item.counterparty_name) return t('activity.title.to', { name: item.counterparty_name })
      if (item.address) return t('activity.title.to', { name: shortAddress(item.address) })
      return t('activity.title.send', { currency })
    case 'receive':
      return item.counterparty_name
        ? t('activity.title.from', { name: item.counterparty_name })
        : t('activity.title.receive', { currency })
    case 'transfer':
      return t('activity.title.transfer')
    case 'deposit':
      if (item.amount.chain === null) {
        return item.counterparty_name
          ? t('activity.title.from', { name: item.counterparty_name })
          : t('activity.title.bankDeposit')
      }
      return t('activity.title.deposit', { currency })
    case 'card_purchase':
      return item.merchant?.name ?? t('activity.title.cardPayment')
    case 'card_top_up':
      return item.card_last4
        ? t('activity.title.topUpCard', { last4: item.card_last4 })
        : t('activity.title.topUp')
    case 'card_balance_return':
      return item.card_last4
        ? t('activity.title.cardReturnOf', { last4: item.card_last4 })
        : t('activity.title.cardReturn')
    case 'fee':
      return item.fee_kind === 'ISSUE'
        ? t('activity.title.feeIssue')
        : item.fee_kind === 'MONTHLY'
          ? t('activity.title.feeMonthly')
          : t('activity.title.fee')
  }
}

export { shortAddress }

/** Where an item stands in a word, or undefined when it is simply done (then the row says its time). */
export function statusText(t: Translate, item: ActivityItem): string | undefined {
  switch (item.status) {
    case 'pending':
      if (
        item.type === 'deposit' &&
        item.confirmations !== null &&
        item.required_confirmations !== null
      ) {
        return t('activity.status.confirming', {
          count: item.confirmations,
          of: item.required_confirmations,
        })
      }
      return item.type === 'card_purchase'
        ? t('activity.status.authorized')
        : t('activity.status.pending')
    case 'complete':
      return undefined
    default:
      return t(STATUS_WORDS[item.status])
  }
}

export const STATUS_WORDS: Record<ActivityStatus, MessageKey> = {
  pending: 'activity.status.pending',
  complete: 'activity.status.complete',
  failed: 'activity.status.failed',
  canceled: 'activity.status.canceled',
  declined: 'activity.status.declined',
  reversed: 'activity.status.reversed',
  refunded: 'activity.status.refunded',
}

/** The status as a word even when done: the detail page's "Status" line. */
export const statusWord = (t: Translate, item: ActivityItem) =>
  statusText(t, item) ?? t('activity.status.complete')

/**
 * How an amount reads: `in` green with "+", `out` in the text colour with
 * "−", `own` without a sign; `failed` (a failure or a decline: red) and
 * `void` (canceled, reversed, refunded: nothing moved) struck through, unsigned.
 */
export type Tone = 'in' | 'out' | 'own' | 'failed' | 'void'

export interface Figure {
  money: MoneySide
  tone: Tone
}

export const signOf = (tone: Tone): MoneySign | undefined =>
  tone === 'in' ? 'in' : tone === 'out' ? 'out' : undefined

const FAILED: readonly ActivityStatus[] = ['failed', 'declined']
const VOID: readonly ActivityStatus[] = ['canceled', 'reversed', 'refunded']

/**
 * The amounts a row shows: the main one, and for a movement between the
 * person's own balances the other side under it ("+0.00101885 BTC" over
 * "−100.10 USDT"). Money out counts what it cost in all (`total`: fee
 * included, refunds taken off); something that moved nothing shows what it
 * was for, struck through.
 */
export function figures(
  item: ActivityItem,
  perspective: Perspective = {},
): { primary: Figure; secondary?: Figure } {
  if (FAILED.includes(item.status)) return { primary: { money: item.amount, tone: 'failed' } }
  if (VOID.includes(item.status)) return { primary: { money: item.amount, tone: 'void' } }
  const spent: Figure = { money: item.total, tone: 'out' }
  const arrived: Figure = { money: item.received ?? item.amount, tone: 'in' }
  switch (item.direction) {
    case 'in':
      return { primary: { money: item.amount, tone: 'in' } }
    case 'out':
      return { primary: spent }
    case 'own':
      if (item.type === 'transfer') {
        if (perspective.wallet === item.counter_wallet_uuid) return { primary: arrived }
        if (perspective.wallet === item.wallet_uuid) return { primary: spent }
        return { primary: { money: item.amount, tone: 'own' } }
      }
      // A top-up is one movement: the card's feed counts what it got, any
      // other what the person gave; topUpWords says the other side in words.
      if (item.type === 'card_top_up') return { primary: perspective.account ? arrived : spent }
      return { primary: arrived, secondary: spent }
  }
}

/**
 * What a card top-up gave the card and what it cost, in words, under what the
 * person gave: "€200.00 to the card" and "€2.00 fee" — one movement, never a
 * second signed amount beside the first. Nothing for any other item.
 */
export function topUpWords(
  t: Translate,
  language: Language,
  item: ActivityItem,
): { toCard: string; fee?: string } | undefined {
  if (item.type !== 'card_top_up' || item.received === null) return undefined
  const money = (side: MoneySide) => formatMoney(language, side)
  return {
    toCard: t('activity.topUp.toCard', { amount: money(item.received) }),
    ...(item.fee && { fee: t('activity.topUp.fee', { amount: money(item.fee) }) }),
  }
}

/** The round picture at the start of a row. */
export type Avatar =
  | { kind: 'initials'; text: string; hue: number }
  | { kind: 'currency'; code: string }
  | { kind: 'icon'; icon: 'exchange' | 'send' | 'transfer' | 'card' | 'topUp' | 'fee' }

/**
 * A merchant's initial, a person's initials, a currency's badge, or an icon
 * for what happened. A name always gets the same colour.
 */
export function avatarOf(item: ActivityItem): Avatar {
  const named = (name: string, letters: number): Avatar => ({
    kind: 'initials',
    text: initials(name, letters),
    hue: hueOf(name),
  })
  switch (item.type) {
    case 'card_purchase':
      return item.merchant ? named(item.merchant.name, 1) : { kind: 'icon', icon: 'card' }
    case 'send':
      return item.counterparty_name
        ? named(item.counterparty_name, 2)
        : { kind: 'icon', icon: 'send' }
    case 'receive':
    case 'deposit':
      if (item.counterparty_name) return named(item.counterparty_name, 2)
      return { kind: 'currency', code: item.amount.currency }
    case 'exchange':
      return { kind: 'icon', icon: 'exchange' }
    case 'transfer':
      return { kind: 'icon', icon: 'transfer' }
    case 'card_top_up':
      return { kind: 'icon', icon: 'topUp' }
    case 'card_balance_return':
      return { kind: 'icon', icon: 'card' }
    case 'fee':
      return { kind: 'icon', icon: 'fee' }
  }
}

/** "Anna Schmidt" → "AS", "Café Einstein" → "C" (letters, not digits or signs). */
export function initials(name: string, letters: number): string {
  const words = name
    .split(/\s+/)
    .map((word) => [...word].find((char) => /\p{L}|\p{N}/u.test(char)))
    .filter((char): char is string => char !== undefined)
  return (words.slice(0, letters).join('') || '?').toLocaleUpperCase()
}

/** A stable hue (0–359) for a name. */
export function hueOf(name: string): number {
  let hash = 0
  for (const char of name) hash = (hash * 31 + (char.codePointAt(0) ?? 0)) % 3600
  return hash % 360
}

// ---------------------------------------------------------------------------
// Days

const dayFormats = new Map<string, Intl.DateTimeFormat>()
function format(key: string, make: () => Intl.DateTimeFormat) {
  let found = dayFormats.get(key)
  if (!found) {
    found = make()
    dayFormats.set(key, found)
  }
  return found
}

/** The calendar day of an instant in a time zone, as "2026-11-12". */
export function dayOf(instant: Date | string, timeZone?: string): string {
  const parts = format(`key:${timeZone ?? ''}`, () =>
    Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }),
  ).formatToParts(typeof instant === 'string' ? new Date(instant) : instant)
  const part = (type: string) => parts.find((item) => item.type === type)?.value ?? ''
  return `${part('year')}-${part('month')}-${part('day')}`
}

/** The day before "2026-03-01": "2026-02-28" (calendar arithmetic, no clock: DST cannot shift it). */
export function dayBefore(day: string): string {
  const [year, month, date] = day.split('-').map(Number)
  return new Date(Date.UTC(year!, month! - 1, date! - 1)).toISOString().slice(0, 10)
}

export interface DayGroup<T> {
  /** "2026-11-12" */
  day: string
  items: T[]
}

/**
 * Newest-first items in runs of one calendar day (the reader's zone). An item
 * seen twice (a page read again after a new item pushed it down) counts once.
 */
export function groupByDay<T extends Pick<ActivityItem, 'id' | 'created_at'>>(
  items: readonly T[],
  timeZone?: string,
): DayGroup<T>[] {
  const groups: DayGroup<T>[] = []
  const seen = new Set<string>()
  for (const item of items) {
    if (seen.has(item.id)) continue
    seen.add(item.id)
    const day = dayOf(item.created_at, timeZone)
    const last = groups.at(-1)
    if (last?.day === day) last.items.push(item)
    else groups.push({ day, items: [item] })
  }
  return groups
}

/** "Today", "Yesterday", "12 November" (this year), "12 November 2025" (another). */
export function dayLabel(
  t: Translate,
  language: Language,
  day: string,
  now: Date,
  timeZone?: string,
): string {
  const today = dayOf(now, timeZone)
  if (day === today) return t('activity.day.today')
  if (day === dayBefore(today)) return t('activity.day.yesterday')
  const sameYear = day.slice(0, 4) === today.slice(0, 4)
  // Noon UTC of that day names the same calendar day in every zone.
  const noon = new Date(`${day}T12:00:00Z`)
  const locale = formatLocale(language)
  return format(`label:${locale}:${sameYear}`, () =>
    Intl.DateTimeFormat(locale, {
      timeZone: 'UTC',
      day: 'numeric',
      month: 'long',
      ...(sameYear ? {} : { year: 'numeric' }),
    }),
  ).format(noon)
}

/** "14:05" / "2:05 PM": a row's time within its day. */
export function timeOf(language: Language, instant: string, timeZone?: string): string {
  const locale = formatLocale(language)
  return format(`time:${locale}:${timeZone ?? ''}`, () =>
    Intl.DateTimeFormat(locale, { timeZone, hour: 'numeric', minute: '2-digit' }),
  ).format(new Date(instant))
}

// ---------------------------------------------------------------------------
// Timeline

/** Order steps keep the words the order screens use; the others have their own. */
const ORDER_EVENT_WORDS = new Set<string>(ORDER_EVENT_CODES)
const ITEM_EVENT_WORDS: Partial<Record<ActivityEventCode, MessageKey>> = {
  DETECTED: 'activity.event.DETECTED',
  CONFIRMED: 'activity.event.CONFIRMED',
  AUTHORIZED: 'activity.event.AUTHORIZED',
  DECLINED: 'activity.event.DECLINED',
  CLEARED: 'activity.event.CLEARED',
  REVERSED: 'activity.event.REVERSED',
  REFUNDED: 'activity.event.REFUNDED',
  CHARGED: 'activity.event.CHARGED',
  RETURNED: 'activity.event.RETURNED',
  DISPUTED: 'activity.event.DISPUTED',
  DISPUTE_CREDITED: 'activity.event.DISPUTE_CREDITED',
  DISPUTE_REVIEWED: 'activity.event.DISPUTE_REVIEWED',
  DISPUTE_WON: 'activity.event.DISPUTE_WON',
  DISPUTE_LOST: 'activity.event.DISPUTE_LOST',
  DISPUTE_CREDIT_REVERSED: 'activity.event.DISPUTE_CREDIT_REVERSED',
}

/** A timeline step in words; a code this app does not know yet (a newer server) says its status. */
export function eventWords(
  t: Translate,
  code: ActivityEventCode,
  status: ActivityStatus,
  type: ActivityType,
): string {
  if (code === 'DELIVERED_TO_WALLET' && type === 'receive') return t('activity.event.RECEIVED')
  if (ORDER_EVENT_WORDS.has(code)) return t(`orders.event.${code}` as MessageKey)
  const key = ITEM_EVENT_WORDS[code]
  return t(key ?? STATUS_WORDS[status])
}

/** What kind of thing an item is, in a word: the filters' names and the detail's "What". */
export const TYPE_WORDS: Record<ActivityType, MessageKey> = {
  exchange: 'activity.type.exchange',
  send: 'activity.type.send',
  receive: 'activity.type.receive',
  transfer: 'activity.type.transfer',
  deposit: 'activity.type.deposit',
  card_purchase: 'activity.type.card_purchase',
  card_top_up: 'activity.type.card_top_up',
  card_balance_return: 'activity.type.card_balance_return',
  fee: 'activity.type.fee',
}
export const ACTIVITY_TYPE_LIST = Object.keys(TYPE_WORDS) as ActivityType[]
