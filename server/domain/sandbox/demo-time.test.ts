import { describe, expect, it } from 'vitest'
import { DEMO_TIMELINE } from './demo-plan.ts'
import { type DemoWhen, demoTime } from './demo-time.ts'

/** A local time on 10 March 2025 (the server's time zone, whatever it is). */
const march10 = (hours: number, minutes: number) => new Date(2025, 2, 10, hours, minutes)

describe('demo time', () => {
  it.each<[string, DemoWhen, Date, Date]>([
    [
      'a day back keeps its time of day',
      { daysAgo: 1, time: '19:45' },
      march10(0, 5),
      new Date(2025, 2, 9, 19, 45),
    ],
    [
      'five weeks back',
      { daysAgo: 35, time: '09:30' },
      march10(12, 0),
      new Date(2025, 1, 3, 9, 30),
    ],
    [
      'across a month end',
      { daysAgo: 10, time: '00:00' },
      march10(23, 59),
      new Date(2025, 1, 28, 0, 0),
    ],
    ['minutes before the seed', { minutesAgo: 40 }, march10(10, 0), march10(9, 20)],
    ['never before midnight: today stays today', { minutesAgo: 40 }, march10(0, 10), march10(0, 0)],
  ])('%s', (_, when, now, expected) => {
    expect(demoTime(when, now)).toEqual(expected)
  })

  it.each<[string, DemoWhen]>([
    ['today with a time of day (it could be later than now)', { daysAgo: 0, time: '08:00' }],
    ['part of a day', { daysAgo: 1.5, time: '08:00' }],
    ['an hour past 23', { daysAgo: 1, time: '24:00' }],
    ['a time not written HH:MM', { daysAgo: 1, time: '9:05' }],
  ])('refuses %s', (_, when) => {
    expect(() => demoTime(when, march10(12, 0))).toThrow(/not a past day and time/)
  })
})

describe('the demo timeline', () => {
  const DAY = 86_400_000
  // Just after midnight, midday, just before midnight: the promise holds at any hour.
  it.each([march10(0, 1), march10(12, 0), march10(23, 59)])(
    'keeps the README’s five weeks at %s: in order, in the past, over ≥ 10 days, today and yesterday included',
    (now) => {
      const times = DEMO_TIMELINE.map((step) => demoTime(step.when, now))
      expect(times.every((at, i) => i === 0 || at >= times[i - 1]!)).toBe(true)
      expect(times.every((at) => at <= now)).toBe(true)
      expect(now.getTime() - times[0]!.getTime()).toBeGreaterThan(35 * DAY)
      const days = new Set(times.map((at) => at.toDateString()))
      expect(days.size).toBeGreaterThanOrEqual(10)
      const yesterday = new Date(now)
      yesterday.setDate(now.getDate() - 1)
      expect(days).toContain(now.toDateString())
      expect(days).toContain(yesterday.toDateString())
    },
  )
})
