import { describe, expect, it } from 'vitest'
import {
  firstOccurrence,
  movedPast,
  nextOccurrences,
  nextRunAfter,
  type Recurrence,
  timingFault,
} from './rules.ts'

const at = (iso: string) => new Date(iso)
const iso = (dates: Date[]) => dates.map((date) => date.toISOString())

const berlin = (rrule: string, startsAt: string, endsAt?: string): Recurrence => ({
  rrule,
  startsAt: at(startsAt),
  endsAt: endsAt ? at(endsAt) : null,
  timeZone: 'Europe/Berlin',
})

describe('when runs fall, in the person’s time zone', () => {
  it('every Monday at 09:00 in Berlin is 08:00 UTC in winter and 07:00 in summer', () => {
    // Monday 16 March 2026, 09:00 CET.
    const mondays = berlin('FREQ=WEEKLY;BYDAY=MO', '2026-03-16T08:00:00Z')
    expect(iso(nextOccurrences(mondays, at('2026-03-16T00:00:00Z'), 5))).toEqual([
      '2026-03-16T08:00:00.000Z',
      '2026-03-23T08:00:00.000Z',
      // The clocks went forward on Sunday 29 March: 09:00 CEST.
      '2026-03-30T07:00:00.000Z',
      '2026-04-06T07:00:00.000Z',
      '2026-04-13T07:00:00.000Z',
    ])
  })

  it('the spring-forward day: a time the clocks skip runs an hour later, once', () => {
    // Every day at 02:30 Berlin time; on 29 March 2026 02:00–03:00 does not exist.
    const daily = berlin('FREQ=DAILY', '2026-03-27T01:30:00Z')
    expect(iso(nextOccurrences(daily, at('2026-03-27T00:00:00Z'), 4))).toEqual([
      '2026-03-27T01:30:00.000Z',
      '2026-03-28T01:30:00.000Z',
      // 02:30 skipped: 03:30 CEST.
      '2026-03-29T01:30:00.000Z',
      '2026-03-30T00:30:00.000Z',
    ])
  })

  it('the fall-back day: a time the clocks repeat runs the first time only', () => {
    // Every day at 02:30 Berlin time; on 25 October 2026 02:00–03:00 happens twice.
    const daily = berlin('FREQ=DAILY', '2026-10-23T00:30:00Z')
    expect(iso(nextOccurrences(daily, at('2026-10-23T00:00:00Z'), 4))).toEqual([
      '2026-10-23T00:30:00.000Z',
      '2026-10-24T00:30:00.000Z',
      // 02:30 CEST, the first of the two.
      '2026-10-25T00:30:00.000Z',
      '2026-10-26T01:30:00.000Z',
    ])
  })

  it('the first run is the first occurrence at or after the start', () => {
    const mondays = berlin('RRULE:FREQ=WEEKLY;BYDAY=MO', '2026-03-16T08:00:00Z')
    expect(firstOccurrence(mondays, at('2026-03-16T08:00:00Z'))).toEqual(at('2026-03-16T08:00:00Z'))
    expect(firstOccurrence(mondays, at('2026-03-16T08:00:01Z'))).toEqual(at('2026-03-23T08:00:00Z'))
  })

  it('ends with ends_at, and with COUNT', () => {
    const ending = berlin('FREQ=DAILY', '2026-01-01T08:00:00Z', '2026-01-03T08:00:00Z')
    expect(nextOccurrences(ending, at('2025-12-31T00:00:00Z'), 5)).toHaveLength(3)
    const counted = berlin('FREQ=DAILY;COUNT=2', '2026-01-01T08:00:00Z')
    expect(nextOccurrences(counted, at('2025-12-31T00:00:00Z'), 5)).toHaveLength(2)
  })

  it('after an outage the next run is the latest one due, not every one missed', () => {
    const daily = berlin('FREQ=DAILY', '2026-01-01T08:00:00Z')
    const ran = at('2026-01-01T08:00:00Z')
    expect(nextRunAfter(daily, ran, at('2026-01-01T09:00:00Z'))).toEqual(at('2026-01-02T08:00:00Z'))
    expect(nextRunAfter(daily, ran, at('2026-01-08T09:00:00Z'))).toEqual(at('2026-01-08T08:00:00Z'))
    const twice = berlin('FREQ=DAILY;COUNT=2', '2026-01-01T08:00:00Z')
    expect(
      nextRunAfter(twice, at('2026-01-02T08:00:00Z'), at('2026-01-05T00:00:00Z')),
    ).toBeUndefined()
  })
})

describe('what a schedule’s timing may say', () => {
  const base = berlin('FREQ=WEEKLY;BYDAY=MO', '2026-03-16T08:00:00Z')
  it.each([
    ['a weekly rule', base, undefined],
    ['a monthly rule on the 1st', { ...base, rrule: 'FREQ=MONTHLY;BYMONTHDAY=1' }, undefined],
    ['an unknown zone', { ...base, timeZone: 'Mars/Olympus' }, '/body/time_zone'],
    ['hourly', { ...base, rrule: 'FREQ=HOURLY' }, '/body/rrule'],
    [
      'its own start',
      { ...base, rrule: 'DTSTART:20260101T000000Z\nRRULE:FREQ=DAILY' },
      '/body/rrule',
    ],
    ['a time of day', { ...base, rrule: 'FREQ=DAILY;BYHOUR=9' }, '/body/rrule'],
    ['UNTIL', { ...base, rrule: 'FREQ=DAILY;UNTIL=20270101T000000Z' }, '/body/rrule'],
    ['not a rule', { ...base, rrule: 'every monday' }, '/body/rrule'],
    ['an end before the start', { ...base, endsAt: at('2026-03-01T00:00:00Z') }, '/body/ends_at'],
  ] as const)('%s', (_, recurrence, field) => {
    expect(timingFault(recurrence)?.field).toBe(field)
  })
})

describe('whether an exchange’s price moved too far', () => {
  it.each([
    // reference, now, bps, skipped
    ['0.00001', '0.00001', 0, false],
    ['0.00001', '0.0000099', 100, false],
    ['0.00001', '0.00000989', 100, true],
    // A better price is no slippage.
    ['0.00001', '0.00002', 0, false],
    ['1.5', '1.4', 10_000, false],
  ] as const)('%s → %s within %d bps: skipped %s', (reference, current, bps, skipped) => {
    expect(movedPast(reference, current, bps)).toBe(skipped)
  })
})
