import { describe, expect, it } from 'vitest'
import { cadenceOf, firstRepeat, nextWeekday } from './schedule-timing.ts'

/** A local wall-clock time, in whatever zone the test runs in (the code under test counts in it too). */
const local = (y: number, m: number, d: number, h = 9, min = 30) => new Date(y, m - 1, d, h, min)

describe('firstRepeat', () => {
  it.each([
    ['weekly', local(2026, 11, 29), local(2026, 12, 6)],
    // Over the spring change (29 March 2026 in Europe) the wall-clock time stays where there is one.
    ['weekly', local(2026, 3, 25), local(2026, 4, 1)],
    ['monthly', local(2026, 11, 29), local(2026, 12, 29)],
    ['monthly', local(2026, 1, 31), local(2026, 2, 28)],
    ['monthly', local(2026, 12, 15), local(2027, 1, 15)],
  ] as const)('%s after %s is %s', (cadence, now, expected) => {
    expect(firstRepeat(now, cadence)).toEqual(expected)
  })
})

describe('nextWeekday', () => {
  it.each([
    // Sunday → the next day; a Monday after 09:00 → a week later; a Monday before → that day.
    [local(2026, 11, 29, 12), local(2026, 11, 30, 9, 0)],
    [local(2026, 11, 30, 10), local(2026, 12, 7, 9, 0)],
    [local(2026, 11, 30, 8), local(2026, 11, 30, 9, 0)],
  ])('the Monday 09:00 after %s is %s', (now, expected) => {
    expect(nextWeekday(now, 1, 9)).toEqual(expected)
  })
})

describe('cadenceOf', () => {
  it.each([
    ['FREQ=WEEKLY', 'weekly'],
    ['RRULE:FREQ=WEEKLY;BYDAY=MO', 'weekly'],
    ['freq=monthly;bymonthday=1', 'monthly'],
    ['FREQ=DAILY;INTERVAL=2', 'daily'],
    ['FREQ=YEARLY', undefined],
    ['BYDAY=MO', undefined],
  ])('%s repeats %s', (rule, cadence) => {
    expect(cadenceOf(rule)).toBe(cadence)
  })
})
