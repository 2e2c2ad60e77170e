/**
 * Orders, the pure part: the status machine, which rail carries each order,
 * the wallet transaction records an order writes, the legs of its ledger
 * entries, its request hash, its deposit reference and its timeline's words.
 * No IO here.
 */
import { isDeepStrictEqual } from 'node:util'
import type { Destination } from '../../../contract/counterparties.ts'
import type {
  FeeKind,
  OrderEventCode,
  OrderStatus,
  OrderTarget,
  OrderType,
} from '../../../contract/orders.ts'
import type { RecordType, TransactionStatus } from '../../../contract/wallets.ts'
import type { StoredPayee, WalletTransactionsTable } from '../../infra/db/schema.ts'
import { canonicalHash, idempotencyKey as requestKey } from '../idempotency.ts'
import { type Posting, transfer } from '../ledger/rules.ts'

// ---------------------------------------------------------------------------
// Rails

/**
 * What carries an order once accepted:
 * - `bank_in`: the person's own bank transfer to the platform (DEPOSIT_FIAT_*);
 * - `bank_out`: a payout by the platform's bank (WITHDRAWAL_FIAT_SEPA);
 * - `chain`: a withdrawal broadcast to a blockchain (WITHDRAWAL_CRYPTO to an address);
 * - `wallet`: a move to another wallet of the tenant (WITHDRAWAL_CRYPTO whose
 *   target names a wallet: a CRYPTO_INTERNAL destination, or an address the
 *   tenant's own wallet holds — pricing resolves that);
 * - `exchange`: a conversion through the tenant's treasury (EXCHANGE_CRYPTO_INTERNAL);
 * - `fiat_account`: a top-up of a fiat account's sub-account (TRANSFER_CARD_*).
 * The last three never leave the ledger: they complete on their first run.
 */
export type Rail = 'bank_in' | 'bank_out' | 'chain' | 'wallet' | 'exchange' | 'fiat_account'

export function railOf(orderType: OrderType, target: Pick<OrderTarget, 'wallet_uuid'>): Rail {
  switch (orderType) {
    case 'DEPOSIT_FIAT_SEPA':
    case 'DEPOSIT_FIAT_SWIFT':
      return 'bank_in'
    case 'WITHDRAWAL_FIAT_SEPA':
      return 'bank_out'
    case 'WITHDRAWAL_CRYPTO':
      return target.wallet_uuid ? 'wallet' : 'chain'
    case 'EXCHANGE_CRYPTO_INTERNAL':
      return 'exchange'
    case 'TRANSFER_CARD_PREPAID':
    case 'TRANSFER_CARD_SUBACCOUNT':
    case 'TRANSFER_CARD_WHOLESALE':
      return 'fiat_account'
  }
}

/** Rails that end inside the ledger: nothing external to wait for. */
export const isInternalRail = (rail: Rail) =>
  rail === 'wallet' || rail === 'exchange' || rail === 'fiat_account'

// ---------------------------------------------------------------------------
// Status machine

export const FINAL_STATUSES: readonly OrderStatus[] = ['CANCELED', 'COMPLETE', 'ERROR', 'FAILED']
export const isFinal = (status: OrderStatus) => FINAL_STATUSES.includes(status)

/**
 * Whether an order on `rail` may move from `from` to `to`:
 * - NEW → PENDING: handed to an external rail (a deposit: at once, awaiting the transfer);
 * - NEW → COMPLETE: an internal move, done in one step;
 * - NEW → FAILED: the rail refused it at hand-off (a sanctioned address);
 * - PENDING → COMPLETE | FAILED: the rail's outcome;
 * - NEW | PENDING → ERROR: processing gave up;
 * - NEW → CANCELED: the person cancelled before the rail had it; a deposit
 *   also while PENDING (no transfer yet — the caller checks that).
 * Once `handedOff` (`submitted_at` is set: the bank or chain may have the
 * order, even if it never answered) only the rail's own answer ends it:
 * never ERROR or CANCELED, whose release would pay the money out twice.
 * Final statuses never move again.
 */
export function canMove(
  rail: Rail,
  from: OrderStatus,
  to: OrderStatus,
  handedOff: boolean,
): boolean {
  if (isFinal(from) || from === to) return false
  if (handedOff && (to === 'ERROR' || to === 'CANCELED')) return false
  if (to === 'ERROR') return true
  if (from === 'NEW') {
    if (to === 'PENDING') return !isInternalRail(rail)
    if (to === 'COMPLETE') return isInternalRail(rail)
    return to === 'FAILED' || to === 'CANCELED'
  }
  // from PENDING
  if (to === 'CANCELED') return rail === 'bank_in'
  if (to === 'FAILED') return rail === 'bank_out' || rail === 'chain'
  return to === 'COMPLETE'
}

/**
 * Whether the person may still cancel: before the rail has the order
 * (`handedOff`: the job claimed it for a payout or broadcast), or a deposit
 * whose transfer has not arrived.
 */
export function isCancelable(order: {
  rail: Rail
  status: OrderStatus
  handedOff: boolean
  transferReceived: boolean
}): boolean {
  if (order.status === 'NEW') return !order.handedOff
  if (order.status === 'PENDING') return order.rail === 'bank_in' && !order.transferReceived
  return false
}

/** The records' status follows the order's. */
export function recordStatus(status: OrderStatus): TransactionStatus {
  switch (status) {
    case 'NEW':
      return 'new'
    case 'PENDING':
      return 'pending'
    case 'COMPLETE':
      return 'complete'
    case 'CANCELED':
      return 'canceled'
    case 'FAILED':
    case 'ERROR':
      return 'failed'
  }
}

/**
 * Whether reaching the final `to` gives the held money back. Safe only with
 * canMove's word: ERROR and CANCELED are never reached once handed off, and
 * FAILED after it only on the rail's answer (it refused, or sent the money back).
 */
export const releasesHold = (rail: Rail, to: OrderStatus) =>
  rail !== 'bank_in' && (to === 'FAILED' || to === 'ERROR' || to === 'CANCELED')

// ---------------------------------------------------------------------------
// Payees

/** A saved destination as the orders area reads it: its payout fields and whom it names. */
export type PayableDestination = Pick<
  Destination,
  'type' | 'iban' | 'bic' | 'chain' | 'address' | 'wallet_uuid'
> & { counterparty_name: string }

/**
 * What paying the destination tells the rail, to snapshot into a quote:
 * SEPA its IBAN, BIC and the counterparty's name; CRYPTO_EXTERNAL its chain
 * and address; CRYPTO_INTERNAL its wallet. Undefined for a rail no order pays.
 */
export function payeeOf(destination: PayableDestination): StoredPayee | undefined {
  const { iban, chain, address, wallet_uuid } = destination
  switch (destination.type) {
    case 'SEPA':
      if (!iban) return undefined
      return {
        kind: 'bank_account',
        iban,
        bic: destination.bic,
        beneficiary: destination.counterparty_name,
      }
    case 'CRYPTO_EXTERNAL':
      return chain && address ? { kind: 'chain_address', chain, address } : undefined
    case 'CRYPTO_INTERNAL':
      return wallet_uuid ? { kind: 'wallet', wallet_uuid } : undefined
    default:
      return undefined
  }
}

/** Whether the destination still pays what was quoted (jsonb keeps no key order: compared by value). */
export const samePayee = (
  quoted: StoredPayee | null | undefined,
  now: StoredPayee | null | undefined,
) => isDeepStrictEqual(quoted ?? null, now ?? null)

// ---------------------------------------------------------------------------
// Records

export interface OrderFacts {
  orderType: OrderType
  target: OrderTarget
  /** Minor units of the from currency. */
  amountFrom: bigint
  /** Minor units of the to currency. */
  amountTo: bigint
  total: bigint
  fees: readonly { kind: FeeKind; amount: bigint }[]
}

/** One wallet transaction record an order writes. */
export interface RecordLine {
  /** The paying wallet (`source`), or the wallet money lands in (`target`). */
  wallet: 'source' | 'target'
  type: WalletTransactionsTable['type']
  method: WalletTransactionsTable['method']
  recordType: RecordType
  currency: 'from' | 'to'
  /** Minor units, always positive: `type` says which way. */
  amount: bigint
  address: string | null
  /**
   * `placed`: written with the order, its status following the order's;
   * `completed`: written when the order completes (money reaching another
   * person's wallet shows up there only once it has arrived).
   */
  when: 'placed' | 'completed'
}

const MAIN: Record<
  OrderType,
  { type: RecordLine['type']; method: RecordLine['method']; recordType: RecordType }
> = {
  DEPOSIT_FIAT_SEPA: { type: 'deposit', method: 'bank_transfer', recordType: 'DEPOSIT' },
  DEPOSIT_FIAT_SWIFT: { type: 'deposit', method: 'bank_transfer', recordType: 'DEPOSIT' },
  WITHDRAWAL_FIAT_SEPA: { type: 'withdrawal', method: 'bank_transfer', recordType: 'WITHDRAWAL' },
  WITHDRAWAL_CRYPTO: {
    type: 'withdrawal',
    method: 'crypto',
    recordType: 'WITHDRAWAL_CRYPTO_EXTERNAL',
  },
  EXCHANGE_CRYPTO_INTERNAL: {
    type: 'withdrawal',
    method: 'exchange',
    recordType: 'EXCHANGE_CRYPTO_INTERNAL',
  },
  TRANSFER_CARD_PREPAID: { type: 'withdrawal', method: 'p2p', recordType: 'CARD_PROVIDER_DEPOSIT' },
  TRANSFER_CARD_SUBACCOUNT: {
    type: 'withdrawal',
    method: 'p2p',
    recordType: 'CARD_PROVIDER_DEPOSIT',
  },
  TRANSFER_CARD_WHOLESALE: {
    type: 'withdrawal',
    method: 'exchange',
    recordType: 'WHOLESALE_CARD_DEPOSIT',
  },
}

/**
 * The records of an order, so that a wallet's history adds up to its balance:
 * the payer's main line plus one line per fee (FEE, or NETWORK_FEE for the
 * network fee), all in the from currency and summing to `total`. A deposit's
 * main line is the whole transfer (`total`) and its fee lines come off it, so
 * the history nets to the `to.amount` credited. What lands in a wallet
 * (an exchange's proceeds, an internal transfer's) is a deposit line on it.
 */
export function recordPlan(order: OrderFacts): RecordLine[] {
  const rail = railOf(order.orderType, order.target)
  const main = MAIN[order.orderType]
  const address = rail === 'chain' ? order.target.address : null
  const lines: RecordLine[] = [
    {
      wallet: 'source',
      ...main,
      recordType: rail === 'wallet' ? 'WITHDRAWAL_CRYPTO_INTERNAL' : main.recordType,
      currency: 'from',
      amount: rail === 'bank_in' ? order.total : order.amountFrom,
      address,
      when: 'placed',
    },
  ]
  for (const fee of order.fees) {
    if (fee.amount <= 0n) continue
    lines.push({
      wallet: 'source',
      type: 'withdrawal',
      method: main.method,
      recordType: fee.kind === 'NETWORK' ? 'NETWORK_FEE' : 'FEE',
      currency: 'from',
      amount: fee.amount,
      address: null,
      when: 'placed',
    })
  }
  if (rail === 'exchange') {
    lines.push({
      wallet: 'target',
      type: 'deposit',
      method: 'exchange',
      recordType: 'EXCHANGE_CRYPTO_INTERNAL',
      currency: 'to',
      amount: order.amountTo,
      address: null,
      when: 'placed',
    })
  }
  if (rail === 'wallet') {
    lines.push({
      wallet: 'target',
      type: 'deposit',
      method: 'crypto',
      recordType: 'DEPOSIT_CRYPTO_INTERNAL',
      currency: 'to',
      amount: order.amountTo,
      address: null,
      when: 'completed',
    })
  }
  return lines
}

// ---------------------------------------------------------------------------
// Ledger legs. Every step is ONE entry (ledger/service.ts: lock order).

export interface HoldAccounts {
  user_wallet: string
  held: string
}

/** Accepting an order: its total leaves what the person can spend. */
export const holdLegs = (wallet: HoldAccounts, currency: string, total: bigint): Posting[] =>
  transfer(wallet.user_wallet, wallet.held, currency, total)

/** Failing, erring or cancelling: the held total goes back. */
export const releaseLegs = (wallet: HoldAccounts, currency: string, total: bigint): Posting[] =>
  transfer(wallet.held, wallet.user_wallet, currency, total)

export interface SettleAccounts {
  /** The paying wallet's held account. */
  held: string
  fees: string
  /** Where the money goes: `external` (a payout or a broadcast), a wallet's user_wallet, a sub-account. */
  destination: string
  /** Conversions only: the tenant's treasury buys `from` and sells `to`. */
  treasury?: string
}

/**
 * Completing an order that held its total: the amount to its destination, the
 * fees to the fees account; a conversion (from ≠ to) goes through the
 * treasury: held FROM → treasury, treasury TO → destination.
 */
export function settleLegs(
  accounts: SettleAccounts,
  from: string,
  to: string,
  order: Pick<OrderFacts, 'amountFrom' | 'amountTo' | 'fees'>,
): Posting[] {
  const legs: Posting[] = []
  if (from === to) {
    legs.push(...transfer(accounts.held, accounts.destination, from, order.amountFrom))
  } else {
    if (!accounts.treasury) throw new Error('a conversion settles through the treasury')
    legs.push(...transfer(accounts.held, accounts.treasury, from, order.amountFrom))
    legs.push(...transfer(accounts.treasury, accounts.destination, to, order.amountTo))
  }
  for (const fee of order.fees) {
    if (fee.amount > 0n) legs.push(...transfer(accounts.held, accounts.fees, from, fee.amount))
  }
  return legs
}

/**
 * A deposit's bank transfer arriving: `to.amount` (from.amount: deposits do
 * not convert) into the wallet, the fees to the fees account, all of it from
 * outside the platform.
 */
export function receiveLegs(
  accounts: { external: string; user_wallet: string; fees: string },
  currency: string,
  order: Pick<OrderFacts, 'amountTo' | 'fees'>,
): Posting[] {
  const legs = transfer(accounts.external, accounts.user_wallet, currency, order.amountTo)
  for (const fee of order.fees) {
    if (fee.amount > 0n)
      legs.push(...transfer(accounts.external, accounts.fees, currency, fee.amount))
  }
  return legs
}

// ---------------------------------------------------------------------------
// Idempotency

/**
 * What a placing request is, for telling a replay from a different request
 * under the same key: the path's order type, the quote and the note. Keys in
 * a fixed order: the hash must not depend on how a client ordered its JSON.
 */
export function requestHash(request: {
  orderType: OrderType
  quoteId: string
  note: string | null | undefined
}): string {
  return canonicalHash({
    note: request.note ?? null,
    order_type: request.orderType,
    quote_id: request.quoteId.toLowerCase(),
  })
}

/** The idempotency key: the body's request_id, else the header, else the quote (one quote, one order). */
export const idempotencyKey = (request: {
  requestId?: string | undefined
  header?: string | undefined
  quoteId: string
}) => requestKey(request) ?? `quote:${request.quoteId.toLowerCase()}`

// ---------------------------------------------------------------------------
// Deposit references

/** Crockford's base32: no I, L, O or U, so a reference read aloud or retyped survives. */
const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ'

/** `FP-XXXX-XXXX` from 5 random bytes (40 bits: collisions are for the unique index to catch). */
export function formatReference(bytes: Uint8Array): string {
  if (bytes.length !== 5) throw new Error('a reference is drawn from 5 bytes')
  let value = 0n
  for (const byte of bytes) value = (value << 8n) | BigInt(byte)
  let chars = ''
  for (let i = 0; i < 8; i++) {
    chars = CROCKFORD[Number(value & 31n)] + chars
    value >>= 5n
  }
  return `FP-${chars.slice(0, 4)}-${chars.slice(4)}`
}

/**
 * A reference as typed on a bank's form: any case, spaces or dashes anywhere,
 * the letters Crockford reads as digits (I, L → 1; O → 0). Undefined when it
 * cannot be one of ours.
 */
export function normalizeReference(text: string): string | undefined {
  const compact = text
    .toUpperCase()
    .replace(/[\s-]/g, '')
    .replace(/^FP/, '')
    .replace(/[IL]/g, '1')
    .replace(/O/g, '0')
  if (!/^[0-9A-HJKMNP-TV-Z]{8}$/.test(compact)) return undefined
  return `FP-${compact.slice(0, 4)}-${compact.slice(4)}`
}

// ---------------------------------------------------------------------------
// Timeline

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

/**
 * How many times in a row a failing step is tried before the order is given
 * up: ERROR if its rail never had it, else a timeline entry (stalledEvent) and
 * the job keeps trying at the runner's capped backoff.
 */
export const MAX_ATTEMPTS = 5
