/**
 * Issue 32: when a repeated payment runs, as the app sets it up and reads it
 * back. Dates move with Date's local-time methods (which keep the wall-clock
 * time across a daylight-saving change), in the zone the schedule is set in:
 * the browser's, which the server counts each run in.
 */

export type Cadence = 'weekly' | 'monthly'

/** The rule of a cadence: each run on the first run's weekday, or on its day of the month. */
export const CADENCE_RULES: Record<Cadence, string> = {
  weekly: 'FREQ=WEEKLY',
  monthly: 'FREQ=MONTHLY',
}

/** The zone the person is in, which their schedules count in. */
export const localTimeZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone

/**
 * The first run of "repeat this" done at `now`: the same wall-clock time a
 * week or a month later (what was just paid is the first of the series). A
 * month later on the 31st is the last day of a shorter month.
 */
export function firstRepeat(now: Date, cadence: Cadence): Date {
  const next = new Date(now.getTime())
  next.setSeconds(0, 0)
  if (cadence === 'weekly') {
    next.setDate(next.getDate() + 7)
    return next
  }
  const day = next.getDate()
  next.setDate(1)
  next.setMonth(next.getMonth() + 1)
  const last = new Date(next.getFullYear(), next.getMonth() + 1, 0).getDate()
  next.setDate(Math.min(day, last))
  return next
}

/** The next `weekday` (0 Sunday … 6 Saturday) at `hour`:00 local time, strictly after `now`. */
export function nextWeekday(now: Date, weekday: number, hour: number): Date {
  const next = new Date(now.getTime())
  next.setHours(hour, 0, 0, 0)
  while (next.getDay() !== weekday || next <= now) next.setDate(next.getDate() + 1)
  return next
}

/** How often an RRULE repeats, as the app words it; undefined for a rule it has no words for. */
export function cadenceOf(rrule: string): 'daily' | 'weekly' | 'monthly' | undefined {
  const freq = /(?:^|;)FREQ=(\w+)/i.exec(rrule.replace(/^RRULE:/i, ''))?.[1]?.toUpperCase()
  switch (freq) {
    case 'DAILY':
      return 'daily'
    case 'WEEKLY':
      return 'weekly'
    case 'MONTHLY':
      return 'monthly'
    default:
      return undefined
  }
}
