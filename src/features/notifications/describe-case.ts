import type { EventKind } from '../../../contract/event-kinds.ts'
import type { Language } from '../../i18n/i18n.tsx'

// The cases describe.test.ts holds describeNotification to, one file per group of kinds.

export const NB = '\u00a0'

export type Said = { title: string; detail: string; amount?: string; failed?: boolean }
export type Case = [string, EventKind, Record<string, unknown>, Language, Said]
