import { describe, expect, it } from 'vitest'
import { monthPeriod, rangePeriod, recentMonths } from './periods.ts'

const local = (year: number, month: number, day: number) =>
  new Date(year, month - 1, day).toISOString()

describe('statement periods in the person’s calendar', () => {
  it('the current month and the eleven before, across a year’s end', () => {
    const months = recentMonths(new Date(2026, 1, 15))
    expect(months.slice(0, 3)).toEqual(['2026-02', '2026-01', '2025-12'])
    expect(months).toHaveLength(12)
    expect(months.at(-1)).toBe('2025-03')
  })

  it('a month runs from its first local midnight to the next month’s', () => {
    expect(monthPeriod('2026-12')).toEqual({ from: local(2026, 12, 1), to: local(2027, 1, 1) })
  })

  const now = new Date(2026, 2, 20, 12)
  it.each([
    ['2026-03-01', '2026-03-10', { period: { from: local(2026, 3, 1), to: local(2026, 3, 11) } }],
    ['2026-03-05', '2026-03-05', { period: { from: local(2026, 3, 5), to: local(2026, 3, 6) } }],
    ['', '2026-03-10', { fault: 'missing' }],
    ['2026-03-10', '2026-03-01', { fault: 'order' }],
    ['2026-04-01', '2026-04-30', { fault: 'future' }],
    ['2024-01-01', '2026-03-01', { fault: 'tooLong' }],
  ])('%s to %s → %j', (first, last, answer) => {
    expect(rangePeriod(first, last, now)).toEqual(answer)
  })
})
