import type { EventKind } from '../../../contract/events.ts'
import type { Language } from './message-words.ts'

// The cases messages.test.ts holds eventMessage to, one file per group of kinds: a case's
// description, kind, payload and language, then the title and body said.

export type Case = [string, EventKind, Record<string, unknown>, Language, string, string]
