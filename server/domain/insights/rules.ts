/**
 * Insights, the pure part: what counts as spending and income, which group a
 * movement falls in, converting into the display currency exactly, the
 * change from one period to the next, and the calendar (months, days, weeks)
 * a period is cut into. No IO.
 */
import type { ActivityType } from '../../../contract/activity.ts'
import {
  type InsightCategory,
  merchantCategoryOf,
  type RateBasisUsed,
} from '../../../contract/insights.ts'

// ---------------------------------------------------------------------------
// What counts

/**
 * Money out to the world: card payments (refunds taken off), money sent to
 * people, card fees. Money in from it: deposits and money received.
 * Movements between the person's own balances (exchanges, transfers between
 * wallets, card top-ups, a closed card's balance) are neither.
 */
export const SPENDING_TYPES: readonly ActivityType[] = ['card_purchase', 'send', 'fee']
export const INCOME_TYPES: readonly ActivityType[] = ['deposit', 'receive']

/** A spending movement's category: a card payment's by its merchant's code. */
export function categoryOf(type: ActivityType, mcc: string | null): InsightCategory {
  if (type === 'send') return 'transfers'
  if (type === 'fee') return 'fees'
  return merchantCategoryOf(mcc)
}

// ---------------------------------------------------------------------------
// Converting

/** A decimal string as units and scale ("1.0834" → 10834n, 4). */
function parseRate(rate: string): { units: bigint; scale: number } {
  const match = /^(\d+)(?:\.(\d+))?$/.exec(rate.trim())
  if (!match) throw new RangeError(`"${rate}" is not a rate`)
  const fraction = match[2] ?? ''
  return { units: BigInt(match[1]! + fraction), scale: fraction.length }
}

/**
 * `minor` units of a currency with `fromDecimals` places, at `rate` (units
 * of the target per unit), in minor units of a currency with `toDecimals`
 * places, rounded half up: integers all the way, never a float.
 */
export function convert(
  minor: bigint,
  fromDecimals: number,
  rate: string,
  toDecimals: number,
): bigint {
  const { units, scale } = parseRate(rate)
  const numerator = minor * units * 10n ** BigInt(toDecimals)
  const denominator = 10n ** BigInt(scale + fromDecimals)
  const negative = numerator < 0n
  const absolute = negative ? -numerator : numerator
  const rounded = (absolute * 2n + denominator) / (denominator * 2n)
  return negative ? -rounded : rounded
}

/** How a movement is converted into the display currency, in the order tried. */
export type Conversion =
  | { basis: 'same' }
  | { basis: 'movement'; rate: string }
  | { basis: 'current'; rate: string }
  | { basis: 'none' }

/**
 * The display currency needs no rate; a movement whose other side was the
 * display currency converts at the rate recorded with it (units of
 * `received` per unit of the amount); anything else at today's rate, or not
 * at all when the provider has none for it.
 */
export function conversionFor(
  movement: { currency: string; received: string | null; rate: string | null },
  display: string,
  today: ReadonlyMap<string, string>,
): Conversion {
  if (movement.currency === display) return { basis: 'same' }
  if (movement.rate && movement.received === display)
    return { basis: 'movement', rate: movement.rate }
  const current = today.get(movement.currency)
  return current ? { basis: 'current', rate: current } : { basis: 'none' }
}

/** What the answer says of the rates it used. */
export function rateBasis(used: ReadonlySet<Conversion['basis']>): RateBasisUsed {
  const movement = used.has('movement')
  const current = used.has('current')
  if (movement && current) return 'mixed'
  if (movement) return 'movement'
  if (current) return 'current'
  return 'none'
}

/** The change from `previous` to `current` in percent, one decimal, half up; null from zero. */
export function changePercent(current: bigint, previous: bigint): string | null {
  if (previous === 0n) return null
  const change = current - previous
  const magnitude = change < 0n ? -change : change
  // Half away from zero on the magnitude: bigint division truncates towards zero.
  const tenths = (magnitude * 1000n * 2n + previous) / (previous * 2n)
  const sign = change < 0n && tenths > 0n ? '-' : ''
  return `${sign}${tenths / 10n}.${tenths % 10n}`
}

// ---------------------------------------------------------------------------
// The calendar

/** "2026-03-09" in a zone. */
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

const addDays = (day: string, days: number) => {
  const [year, month, date] = day.split('-').map(Number)
  return new Date(Date.UTC(year!, month! - 1, date! + days)).toISOString().slice(0, 10)
}

/** The Monday of a day's week (calendar arithmetic: no clock, no DST). */
export function weekOf(day: string): string {
  const weekday = new Date(`${day}T12:00:00Z`).getUTCDay()
  return addDays(day, -((weekday + 6) % 7))
}

/** Every day (or every week's Monday) from the one holding `from` to the one holding `to`'s last instant. */
export function calendar(
  from: Date,
  to: Date,
  timeZone: string,
  interval: 'day' | 'week',
): string[] {
  const first = dayIn(from, timeZone)
  const last = dayIn(new Date(to.getTime() - 1), timeZone)
  const start = interval === 'week' ? weekOf(first) : first
  const end = interval === 'week' ? weekOf(last) : last
  const step = interval === 'week' ? 7 : 1
  const days: string[] = []
  for (let day = start; day <= end; day = addDays(day, step)) days.push(day)
  return days
}

/** Every month ("2026-03") from the one holding `from` to the one holding `to`'s last instant. */
export function months(from: Date, to: Date, timeZone: string): string[] {
  const first = dayIn(from, timeZone).slice(0, 7)
  const last = dayIn(new Date(to.getTime() - 1), timeZone).slice(0, 7)
  const list: string[] = []
  let [year, month] = first.split('-').map(Number) as [number, number]
  for (let key = first; key <= last; ) {
    list.push(key)
    month += 1
    if (month > 12) {
      month = 1
      year += 1
    }
    key = `${year}-${String(month).padStart(2, '0')}`
  }
  return list
}

/** The month before "2026-03": "2026-02". */
export function monthBefore(month: string): string {
  const [year, number] = month.split('-').map(Number) as [number, number]
  return number === 1 ? `${year - 1}-12` : `${year}-${String(number - 1).padStart(2, '0')}`
}
