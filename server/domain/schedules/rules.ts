/**
 * Schedules, the pure part: which recurrence rules are taken, when each run
 * falls in the person's time zone, which run comes next after one ran, and
 * whether an exchange's price moved too far. No IO here.
 *
 * Time: `rrule` counts occurrences in floating wall-clock time (the rule's
 * own advice: "dates in your local time" as UTC fields), and Temporal (the
 * polyfill) turns each wall-clock time into an instant in the person's zone,
 * with RFC 5545's answer for the two daylight-saving days: a time the clocks
 * skip runs at the same time after the change, a time they repeat runs the
 * first time (Temporal's `compatible` disambiguation). No date arithmetic by hand.
 */
import * as rruleModule from 'rrule'
import { Temporal } from 'temporal-polyfill'
import { toMinor } from '../../../contract/money.ts'
import type { QuoteQuery } from '../../../contract/orders.ts'
import type { ScheduleKind } from '../../../contract/schedules.ts'

type Rrule = typeof import('rrule')
// Node loads rrule's CommonJS build (no named exports it can see); the server bundle its ES module.
const { RRule, rrulestr, Frequency } = ((rruleModule as unknown as { default?: Rrule }).default ??
  rruleModule) as Rrule

export interface Recurrence {
  rrule: string
  startsAt: Date
  endsAt: Date | null
  timeZone: string
}

export type RuleFault = {
  field: '/body/rrule' | '/body/time_zone' | '/body/ends_at'
  message: string
}

/** "RRULE:FREQ=…" and "FREQ=…" alike. */
const ruleText = (rrule: string) => rrule.trim().replace(/^RRULE:/i, '')

/** What a rule may not say: the start, zone, end and time of day are the schedule's own fields. */
const FORBIDDEN = /(^|;)(DTSTART|TZID|UNTIL|BYHOUR|BYMINUTE|BYSECOND)=/i

/** Why a schedule's timing cannot be, or undefined. */
export function timingFault(recurrence: Recurrence): RuleFault | undefined {
  if (!isTimeZone(recurrence.timeZone)) {
    return { field: '/body/time_zone', message: 'must be an IANA time zone, e.g. Europe/Berlin' }
  }
  const text = ruleText(recurrence.rrule)
  if (text.includes('\n') || FORBIDDEN.test(text)) {
    return {
      field: '/body/rrule',
      message:
        'must be one RRULE without DTSTART, TZID, UNTIL or a time of day: ' +
        'starts_at, time_zone and ends_at say those',
    }
  }
  let freq: number | undefined
  try {
    freq = RRule.parseString(text).freq
  } catch {
    return { field: '/body/rrule', message: 'is not an RFC 5545 recurrence rule' }
  }
  if (freq === undefined) return { field: '/body/rrule', message: 'must name its FREQ' }
  if (freq > Frequency.DAILY) {
    return { field: '/body/rrule', message: 'must repeat at most daily (FREQ=DAILY or slower)' }
  }
  if (recurrence.endsAt && recurrence.endsAt <= recurrence.startsAt) {
    return { field: '/body/ends_at', message: 'must be after starts_at' }
  }
  return undefined
}

export function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone })
    return true
  } catch {
    return false
  }
}

/** The wall-clock time of `instant` in `zone`, as rrule's floating date (its fields in UTC). */
function floating(wall: Temporal.PlainDateTime): Date {
  return new Date(
    Date.UTC(wall.year, wall.month - 1, wall.day, wall.hour, wall.minute, wall.second),
  )
}

const wallOf = (instant: Date, zone: string) =>
  Temporal.Instant.fromEpochMilliseconds(instant.getTime())
    .toZonedDateTimeISO(zone)
    .toPlainDateTime()

/** A floating date's wall-clock time in `zone`, as an instant (see the top: the DST days). */
function instantOf(wall: Date, zone: string): Date {
  const local = Temporal.PlainDateTime.from({
    year: wall.getUTCFullYear(),
    month: wall.getUTCMonth() + 1,
    day: wall.getUTCDate(),
    hour: wall.getUTCHours(),
    minute: wall.getUTCMinutes(),
    second: wall.getUTCSeconds(),
  })
  return new Date(local.toZonedDateTime(zone, { disambiguation: 'compatible' }).epochMilliseconds)
}

/** The occurrences strictly after `after`, in order, up to `endsAt`. */
export function* occurrencesAfter(recurrence: Recurrence, after: Date): Generator<Date> {
  const zone = recurrence.timeZone
  // The rule counts whole seconds: a start's milliseconds must not hide its own first run.
  const startsAt = new Date(recurrence.startsAt.getTime() - recurrence.startsAt.getMilliseconds())
  const rule = rrulestr(ruleText(recurrence.rrule), {
    dtstart: floating(wallOf(recurrence.startsAt, zone)),
  })
  // From two days of wall time earlier: a wall time repeated on the autumn change is not missed.
  let wall = rule.after(floating(wallOf(after, zone).subtract({ days: 2 })), true)
  while (wall) {
    const at = instantOf(wall, zone)
    if (recurrence.endsAt && at > recurrence.endsAt) return
    if (at > after && at >= startsAt) yield at
    wall = rule.after(wall, false)
  }
}

/** The next `count` occurrences after `after`. */
export function nextOccurrences(recurrence: Recurrence, after: Date, count: number): Date[] {
  const found: Date[] = []
  if (count <= 0) return found
  for (const at of occurrencesAfter(recurrence, after)) {
    found.push(at)
    if (found.length === count) break
  }
  return found
}

/** The first occurrence at or after `from`: a new schedule's (or a resumed one's) next run. */
export function firstOccurrence(recurrence: Recurrence, from: Date): Date | undefined {
  return nextOccurrences(recurrence, new Date(from.getTime() - 1), 1)[0]
}

/**
 * The run after `occurrence`, once it ran at `now`: the next occurrence — or,
 * when several fell while no server ran, only the latest of those that are
 * due (a week's outage buys once, not seven times); undefined when none is left.
 */
export function nextRunAfter(
  recurrence: Recurrence,
  occurrence: Date,
  now: Date,
): Date | undefined {
  let due: Date | undefined
  for (const at of occurrencesAfter(recurrence, occurrence)) {
    if (at > now) return due ?? at
    due = at
  }
  return due
}

/** Units of `to` per unit of `from`, scaled to integers: rates carry at most 18 places. */
const scaled = (rate: string) => toMinor(rate, 18)

/**
 * Whether an exchange's price moved against the person past `bps` basis
 * points from the reference: fewer units of `to` per unit of `from` than
 * reference × (1 − bps/10 000). A better price is no slippage.
 */
export function movedPast(reference: string, current: string, bps: number): boolean {
  return scaled(current) * 10_000n < scaled(reference) * BigInt(10_000 - bps)
}

export const recurrenceOf = (row: {
  rrule: string
  starts_at: Date
  ends_at: Date | null
  time_zone: string
}): Recurrence => ({
  rrule: row.rrule,
  startsAt: row.starts_at,
  endsAt: row.ends_at,
  timeZone: row.time_zone,
})

/** The quote a run of an exchange or withdrawal template asks for (run-schedule.ts too). */
export function quoteQueryOf(row: { kind: ScheduleKind; template: unknown }): QuoteQuery {
  const template = row.template as Record<string, string>
  return row.kind === 'exchange'
    ? {
        order_type: 'EXCHANGE_CRYPTO_INTERNAL',
        wallet_uuid: template.wallet_uuid!,
        from_uuid: template.from_uuid!,
        to_uuid: template.to_uuid!,
        amount_from: template.amount_from!,
      }
    : {
        order_type: template.order_type as QuoteQuery['order_type'],
        wallet_uuid: template.wallet_uuid!,
        from_uuid: template.from_uuid!,
        amount_from: template.amount_from!,
        destination_id: template.destination_id!,
      }
}
