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

/** Runs `work` with every ledger entry it posts booked at `at`. */
export const bookedAt = <T>(at: Date, work: () => Promise<T>): Promise<T> => booking.run(at, work)

/** The time `bookedAt` set, or undefined: the database's now(). */
export const bookingTime = (): Date | undefined => booking.getStore()
