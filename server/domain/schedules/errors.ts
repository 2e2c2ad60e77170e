import { DomainError } from '../failure.ts'

/** A field of a schedule at fault, named as a JSON pointer into the body. */
export interface ScheduleField {
  field: string
  message: string
}

/**
 * The failures of the schedule use cases; routes.ts maps them to HTTP in one
 * switch. A template's wallet that is not the caller's fails with the
 * wallet's own WALLET_NOT_FOUND.
 */
export type ScheduleFailure =
  /** No such schedule of the caller's (a deleted one included). */
  | { kind: 'SCHEDULE_NOT_FOUND' }
  /** The rule, zone, dates or template cannot be run; `errors` names each field. */
  | { kind: 'SCHEDULE_INVALID'; errors: ScheduleField[] }

export class ScheduleError extends DomainError<ScheduleFailure> {}

export const scheduleInvalid = (field: string, message: string) =>
  new ScheduleError({ kind: 'SCHEDULE_INVALID', errors: [{ field, message }] })
