import { setTimeout as sleep } from 'node:timers/promises'
import { describe, expect, it } from 'vitest'
import { bookedAt, bookingTime } from './booking-time.ts'

describe('booking time: the demo plays in the past, nothing after it does', () => {
  it('is the run’s time inside it, overlapping runs each their own, and nothing outside', async () => {
    const at = new Date('2026-01-05T10:00:00Z')
    const other = new Date('2026-02-01T09:00:00Z')
    const seen = await Promise.all([
      bookedAt(at, async () => {
        await sleep(5)
        return bookingTime()
      }),
      bookedAt(other, async () => bookingTime()),
    ])
    expect(seen).toEqual([at, other])
    expect(bookingTime()).toBeUndefined()
  })

  it('leaves no time behind in what a run started and did not wait for', async () => {
    let late: Date | undefined | 'unset' = 'unset'
    const fired = new Promise<void>((resolve) => {
      void bookedAt(new Date('2026-01-05T10:00:00Z'), async () => {
        // A timer armed inside the run (a job kicked, a retry) fires after it ended.
        setTimeout(() => {
          late = bookingTime()
          resolve()
        }, 20)
      })
    })
    await fired
    expect(late).toBeUndefined()
  })
})
