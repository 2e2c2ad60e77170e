/*
 * The periods a statement can be asked for, in the person's own calendar: a
 * month (the current one so far, or one of the eleven before) or a range of
 * days they pick. Pure: the page and its tests share it. The server takes
 * instants (`from` inclusive, `to` exclusive) and the zone the file's dates
 * are written in.
 */

export interface Period {
  /** ISO 8601 instants: the first day's start, the day after the last one's start. */
  from: string
  to: string
}

/** "2026-03": a month as the page keys it. */
export type MonthKey = string

/** The local midnight starting a day ("2026-03-09") in this device's zone. */
const startOf = (year: number, month: number, day: number) => new Date(year, month - 1, day)

/** The current month and the eleven before it, newest first. */
export function recentMonths(now: Date, count = 12): MonthKey[] {
  const months: MonthKey[] = []
  for (let back = 0; back < count; back++) {
    const at = new Date(now.getFullYear(), now.getMonth() - back, 1)
    months.push(`${at.getFullYear()}-${String(at.getMonth() + 1).padStart(2, '0')}`)
  }
  return months
}

/** A month from its first local midnight to the next month's. */
export function monthPeriod(month: MonthKey): Period {
  const [year, number] = month.split('-').map(Number) as [number, number]
  return {
    from: startOf(year, number, 1).toISOString(),
    to: startOf(year, number + 1, 1).toISOString(),
  }
}

/** What is wrong with a range of days, if anything: the page words it. */
export type RangeFault = 'missing' | 'order' | 'future' | 'tooLong'

/** The longest range, in days (the server's STATEMENT_MAX_DAYS). */
export const MAX_RANGE_DAYS = 366

/**
 * Two days as date inputs give them ("2026-03-01", "2026-03-31"), both
 * included, as a period; or why they make none.
 */
export function rangePeriod(
  first: string,
  last: string,
  now: Date,
): { period: Period } | { fault: RangeFault } {
  const parse = (day: string) => {
    const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day)
    return match ? startOf(Number(match[1]), Number(match[2]), Number(match[3])) : undefined
  }
  const from = parse(first)
  const lastDay = parse(last)
  if (!from || !lastDay) return { fault: 'missing' }
  const to = new Date(lastDay.getFullYear(), lastDay.getMonth(), lastDay.getDate() + 1)
  if (to <= from) return { fault: 'order' }
  if (from > now) return { fault: 'future' }
  if (to.getTime() - from.getTime() > (MAX_RANGE_DAYS + 1) * 86_400_000) return { fault: 'tooLong' }
  return { period: { from: from.toISOString(), to: to.toISOString() } }
}

/** The zone this device keeps time in, for the file's dates. */
export const deviceTimeZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC'
