import { DomainError } from '../failure.ts'
import type { PushKeyProblem } from './rules.ts'
import type { UrlRefusal } from './ssrf.ts'

/**
 * The failures of the event use cases; routes.ts maps them to HTTP in one
 * switch. Another person's endpoint or delivery is NOT_FOUND, like a missing one.
 */
export type EventsFailure =
  | { kind: 'WEBHOOK_ENDPOINT_NOT_FOUND' }
  | { kind: 'WEBHOOK_DELIVERY_NOT_FOUND' }
  | { kind: 'WEBHOOK_ENDPOINT_LIMIT'; limit: number }
  | { kind: 'WEBHOOK_URL_REFUSED'; reason: UrlRefusal }
  | { kind: 'PUSH_ENDPOINT_REFUSED'; reason: UrlRefusal }
  /** The subscription's keys are no browser's (not a P-256 point, or an auth secret not 16 bytes). */
  | ({ kind: 'PUSH_KEYS_INVALID' } & PushKeyProblem)
  /** Security kinds (and a card issued) reach the person whatever they mute. */
  | { kind: 'NOTIFICATION_KIND_NOT_MUTABLE'; fields: { field: string; kind: string }[] }

export class EventsError extends DomainError<EventsFailure> {}
