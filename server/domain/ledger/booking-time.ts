import { AsyncLocalStorage } from 'node:async_hooks'

/*
 * When an entry is booked. Always the database's clock — except while the
 * sandbox demo plays its five weeks through the use cases (issue 27): each
 * step then books its entries at the step's time, so a statement or a balance
 * history of the demo (issue 31) reads its past as the activity feed does.
 * Ambient rather than a parameter: the demo reaches the ledger through a
 * dozen use cases, and none of them should carry a clock only it needs.
 */
const booking = new AsyncLocalStorage<Date>()
let playing = 0

/**
 * Runs `work` with every ledger entry it posts booked at `at`. When the last
 * such run ends the store is disabled: on Node 20 a store once run keeps
 * async hooks on for every promise of the process — a quarter of an
 * authenticated read's throughput for as long as the server ran after its
 * demo was seeded — and a timer armed inside a run would otherwise carry the
 * demo's time into entries booked long after it.
 */
export async function bookedAt<T>(at: Date, work: () => Promise<T>): Promise<T> {
  playing++
  try {
    return await booking.run(at, work)
  } finally {
    if (--playing === 0) booking.disable()
  }
}

/** The time `bookedAt` set, or undefined: the database's now(). */
export const bookingTime = (): Date | undefined => booking.getStore()
