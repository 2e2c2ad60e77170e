/**
 * An order's timeline: the entry each status reaches on each rail, its code for the app to
 * word and its English note for API users. Pure: no IO.
 */
import type { OrderEventCode, OrderStatus } from '../../../contract/orders.ts'
import type { Rail } from './rules.ts'

/**
 * One timeline entry's words: `code` for the app to word in its language,
 * `note` the same in English for API users. Only timelineEvent and
 * stalledEvent make one, the note looked up by its code: they never disagree.
 */
export interface TimelineEvent {
  code: OrderEventCode
  note: string
}

/** What a note may need besides its code. */
interface NoteFacts {
  rail: Rail
  reference: string | null | undefined
}

const RELEASED = 'the held funds were released'

/** The English of each code; a code added to the contract does not compile without its note. */
const NOTES: Record<OrderEventCode, string | ((facts: NoteFacts) => string)> = {
  PLACED: 'Order placed',
  FUNDS_HELD: 'Order placed; the funds are held',
  AWAITING_TRANSFER: ({ reference }) => `Awaiting your bank transfer with reference ${reference}`,
  SENT_TO_BANK: 'Sent to the bank',
  BROADCAST: 'Broadcast to the network',
  TRANSFER_RECEIVED: 'Bank transfer received',
  PAID_OUT: 'Paid out by the bank',
  CONFIRMED_ON_CHAIN: 'Confirmed on chain',
  DELIVERED_TO_WALLET: 'Delivered to the wallet',
  EXCHANGED: 'Exchanged at the quoted rate',
  TOPPED_UP: 'Fiat account topped up',
  RETURNED_ACCOUNT_CLOSED: `Returned by the beneficiary’s bank: the account is closed; ${RELEASED}`,
  ADDRESS_REJECTED: `Address rejected by the network; ${RELEASED}`,
  FIAT_ACCOUNT_INACTIVE: `The fiat account does not accept top-ups; ${RELEASED}`,
  REFUSED: `Refused; ${RELEASED}`,
  PROCESSING_FAILED: `Processing failed; ${RELEASED}`,
  // A deposit holds nothing: there is nothing to release.
  CANCELED: ({ rail }) => (rail === 'bank_in' ? 'Canceled by you' : `Canceled by you; ${RELEASED}`),
  BANK_NOT_ANSWERING:
    'The bank is not answering; we keep asking. The funds stay held until the bank pays out or returns the payout',
  NETWORK_NOT_ANSWERING:
    'The network is not answering; we keep checking. The funds stay held until the withdrawal confirms or fails',
}

const event = (code: OrderEventCode, facts: NoteFacts): TimelineEvent => {
  const note = NOTES[code]
  return { code, note: typeof note === 'string' ? note : note(facts) }
}

/** What the timeline says about an order reaching `status` on `rail`. */
export function timelineEvent(
  rail: Rail,
  status: OrderStatus,
  detail: { reference?: string | null; failureCode?: string | null } = {},
): TimelineEvent {
  return event(eventCode(rail, status, detail.failureCode), { rail, reference: detail.reference })
}

/**
 * The one entry an order gets when its rail stops answering after the
 * hand-off (MAX_ATTEMPTS failures in a row). Its status stays; the job keeps asking.
 */
export const stalledEvent = (rail: Rail): TimelineEvent =>
  event(rail === 'chain' ? 'NETWORK_NOT_ANSWERING' : 'BANK_NOT_ANSWERING', {
    rail,
    reference: null,
  })

/** What completing means on each rail. */
const COMPLETED: Record<Rail, OrderEventCode> = {
  bank_in: 'TRANSFER_RECEIVED',
  bank_out: 'PAID_OUT',
  chain: 'CONFIRMED_ON_CHAIN',
  wallet: 'DELIVERED_TO_WALLET',
  exchange: 'EXCHANGED',
  fiat_account: 'TOPPED_UP',
}

function eventCode(
  rail: Rail,
  status: OrderStatus,
  failureCode: string | null | undefined,
): OrderEventCode {
  switch (status) {
    case 'NEW':
      return rail === 'bank_in' ? 'PLACED' : 'FUNDS_HELD'
    case 'PENDING':
      if (rail === 'bank_in') return 'AWAITING_TRANSFER'
      return rail === 'chain' ? 'BROADCAST' : 'SENT_TO_BANK'
    case 'COMPLETE':
      return COMPLETED[rail]
    case 'FAILED':
      switch (failureCode) {
        case 'ACCOUNT_CLOSED':
          return 'RETURNED_ACCOUNT_CLOSED'
        case 'ADDRESS_REJECTED':
          return 'ADDRESS_REJECTED'
        case 'FIAT_ACCOUNT_INACTIVE':
          return 'FIAT_ACCOUNT_INACTIVE'
        default:
          return 'REFUSED'
      }
    case 'ERROR':
      return 'PROCESSING_FAILED'
    case 'CANCELED':
      return 'CANCELED'
  }
}
