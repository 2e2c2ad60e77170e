/**
 * The activity feed's reading, the pure part: what an item changed the
 * person's money by, the keyset cursor and the search's pattern and ranges.
 * What an item is and the statuses it goes through are its writers'
 * (feed/rules.ts, orders/feed-rules.ts). No IO here.
 */
import type {
  ActivityDirection,
  ActivityQuery,
  ActivityStatus,
} from '../../../contract/activity.ts'
import { isUuid } from '../../infra/uuid.ts'
import { ActivityError } from './errors.ts'

// ---------------------------------------------------------------------------
// What it changed the person's money by

/** Statuses of items that moved no money in the end. */
const NOTHING_MOVED: readonly ActivityStatus[] = [
  'failed',
  'canceled',
  'declined',
  'reversed',
  'refunded',
]

/**
 * In `amount`'s currency, never negative: out and own, amount + fee −
 * refunded; in, amount (a deposit's fee came out of the transfer, not the
 * wallet). Zero when the item moved nothing in the end.
 */
export function activityTotal(item: {
  status: ActivityStatus
  direction: ActivityDirection
  amount: bigint
  fee: bigint
  refunded: bigint
}): bigint {
  if (NOTHING_MOVED.includes(item.status)) return 0n
  if (item.direction === 'in') return item.amount
  const total = item.amount + item.fee - item.refunded
  return total > 0n ? total : 0n
}

// ---------------------------------------------------------------------------
// Keyset cursor

/**
 * Where a page ended: the last item's created_at as PostgreSQL's own text
 * (microseconds: a JS Date keeps milliseconds and would skip or repeat items
 * sharing one) and its id. Opaque to clients: base64url of `<at>|<id>`.
 */
export interface ActivityCursor {
  at: string
  id: string
}

export const encodeCursor = (cursor: ActivityCursor) =>
  Buffer.from(`${cursor.at}|${cursor.id}`, 'utf8').toString('base64url')

// PostgreSQL's timestamptz text: "2025-03-01 12:00:00.000007+00", offsets like +05:30.
const PG_TIMESTAMP = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}(\.\d{1,6})?[+-]\d{2}(:\d{2})?$/

/** @throws ActivityError INVALID_CURSOR for anything encodeCursor did not make */
export function decodeCursor(text: string): ActivityCursor {
  if (!/^[A-Za-z0-9_-]+$/.test(text)) throw new ActivityError({ kind: 'INVALID_CURSOR' })
  const [at, id, ...rest] = Buffer.from(text, 'base64url').toString('utf8').split('|')
  if (rest.length > 0 || !at || !id || !PG_TIMESTAMP.test(at) || !isUuid(id)) {
    throw new ActivityError({ kind: 'INVALID_CURSOR' })
  }
  return { at, id: id.toLowerCase() }
}

/** `q` as a LIKE pattern that matches it literally anywhere, lower-cased like the column. */
export const searchPattern = (q: string) =>
  `%${q
    .trim()
    .toLowerCase()
    .replace(/[\\%_]/g, (c) => `\\${c}`)}%`

/** Compares two plain decimals ("12.5", "12.50") exactly: negative, zero or positive. */
function compareDecimals(a: string, b: string): number {
  const [wholeA = '', fractionA = ''] = a.split('.')
  const [wholeB = '', fractionB = ''] = b.split('.')
  const places = Math.max(fractionA.length, fractionB.length)
  const scaled = (whole: string, fraction: string) => BigInt(whole + fraction.padEnd(places, '0'))
  const difference = scaled(wholeA, fractionA) - scaled(wholeB, fractionB)
  return difference < 0n ? -1 : difference > 0n ? 1 : 0
}

/**
 * A feed's ranges must hold something: `from` not after `to`, `min` not
 * above `max` (the query's schema has checked each is a date-time or decimal).
 * @throws ActivityError EMPTY_RANGE
 */
export function checkRanges(query: Pick<ActivityQuery, 'from' | 'to' | 'min' | 'max'>): void {
  if (query.from && query.to && Date.parse(query.from) > Date.parse(query.to)) {
    throw new ActivityError({ kind: 'EMPTY_RANGE', field: 'from', other: 'to' })
  }
  if (query.min && query.max && compareDecimals(query.min, query.max) > 0) {
    throw new ActivityError({ kind: 'EMPTY_RANGE', field: 'min', other: 'max' })
  }
}
