import type { KycStatus } from '../../../contract/enums.ts'
import type { KycDocumentType } from '../../../contract/kyc.ts'

/** The documents the sandbox screen offers, in the order shown. */
export const DOCUMENT_TYPES = [
  'PASSPORT',
  'ID_CARD',
  'DRIVING_LICENCE',
] as const satisfies readonly KycDocumentType[]

/** How a status reads: its tone on screen and what the person can do about it. */
export interface StatusView {
  tone: 'success' | 'waiting' | 'action' | 'final'
  /** A submission (or the provider's SDK) can be started now. */
  canStart: boolean
  /** The page asks the server again on its own (see pollInterval). */
  polls: boolean
}

export function statusView(status: KycStatus): StatusView {
  switch (status) {
    case 'APPROVED':
      return { tone: 'success', canStart: false, polls: false }
    case 'PENDING':
    case 'HOLD':
      return { tone: 'waiting', canStart: false, polls: true }
    case 'UNVERIFIED':
    case 'SOFT_REJECT':
    case 'DECLINED':
      return { tone: 'action', canStart: true, polls: false }
    case 'REJECT':
    case 'DOUBLE':
      return { tone: 'final', canStart: false, polls: false }
  }
}
