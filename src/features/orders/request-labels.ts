import type { PaymentRequestStatus } from '../../../contract/payment-requests.ts'
import type { MessageKey } from '../../i18n/en.ts'

/** A request's status in words; a status added to the contract is a type error here until worded. */
export const REQUEST_STATUS_WORDS: Record<PaymentRequestStatus, MessageKey> = {
  OPEN: 'people.request.status.OPEN',
  PAID: 'people.request.status.PAID',
  CANCELED: 'people.request.status.CANCELED',
  EXPIRED: 'people.request.status.EXPIRED',
}
