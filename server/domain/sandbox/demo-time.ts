/**
 * When a step of the demo happened, relative to the start that seeds it: a
 * time of day some days back, or some minutes before the seed today. Days
 * and times of day are the server's time zone, as the people it runs for read
 * "Yesterday".
 */
export type DemoWhen = { daysAgo: number; time: string } | { minutesAgo: number }

const TIME_OF_DAY = /^([01][0-9]|2[0-3]):([0-5][0-9])$/

/**
 * The instant of `when` for a seed that runs at `now`. A day back keeps its
 * time of day (so yesterday's 19:45 is yesterday whatever the hour now);
 * today's minutes stop at midnight, so "today" stays today even just after it.
 * @throws Error for a day back that is not a whole day ≥ 1, or a time that is not HH:MM
 */
export function demoTime(when: DemoWhen, now: Date): Date {
  if ('minutesAgo' in when) {
    const midnight = new Date(now)
    midnight.setHours(0, 0, 0, 0)
    return new Date(Math.max(midnight.getTime(), now.getTime() - when.minutesAgo * 60_000))
  }
  const time = TIME_OF_DAY.exec(when.time)
  if (!Number.isInteger(when.daysAgo) || when.daysAgo < 1 || !time) {
    throw new Error(
      `a demo step on day -${when.daysAgo} at ${when.time} is not a past day and time`,
    )
  }
  const at = new Date(now)
  at.setDate(at.getDate() - when.daysAgo)
  at.setHours(Number(time[1]), Number(time[2]), 0, 0)
  return at
}
