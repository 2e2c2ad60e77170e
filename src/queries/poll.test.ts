import { describe, expect, it } from 'vitest'
import { backingOff } from './poll.ts'

/** A query's state as TanStack hands it to refetchInterval. */
const query = (state: { data: unknown; dataUpdatedAt: number; errorUpdatedAt?: number }) => ({
  state: { errorUpdatedAt: 0, ...state },
})

describe('a poll that backs off', () => {
  it('doubles for each answer that changed nothing, up to the cap, and starts over on a change', () => {
    const interval = backingOff(10_000)
    const same = { data: [] }
    const q = query({ data: same, dataUpdatedAt: 1 })
    expect(interval(q)).toBe(10_000)
    const answers = [2, 3, 4, 5]
    const seen = answers.map((at) => {
      q.state.dataUpdatedAt = at
      return interval(q)
    })
    expect(seen).toEqual([20_000, 40_000, 80_000, 80_000])

    q.state.data = { data: ['new'] }
    q.state.dataUpdatedAt = 6
    expect(interval(q)).toBe(10_000)
  })

  it('counts answers, not how often it is asked', () => {
    const interval = backingOff(1_000)
    const q = query({ data: 'x', dataUpdatedAt: 1 })
    expect([interval(q), interval(q), interval(q)]).toEqual([1_000, 1_000, 1_000])
  })

  it('a failed read (the old data kept) backs off too', () => {
    const interval = backingOff(1_000)
    const q = query({ data: 'x', dataUpdatedAt: 1 })
    interval(q)
    q.state.errorUpdatedAt = 2
    expect(interval(q)).toBe(2_000)
  })
})
