/**
 * Orders, the pure part: which rail carries each order, the status machine, whom an order
 * pays and its request hash. Records (record-rules.ts), ledger legs (leg-rules.ts), deposit
 * references (reference-rules.ts) and the timeline (timeline-rules.ts) are beside it. No IO.
 */
import { isDeepStrictEqual } from 'node:util'
import type { Destination } from '../../../contract/counterparties.ts'
import type { OrderStatus, OrderTarget, OrderType } from '../../../contract/orders.ts'
import type { TransactionStatus } from '../../../contract/wallets.ts'
import type { StoredPayee } from '../../infra/db/schema.ts'
import { canonicalHash, idempotencyKey as requestKey } from '../idempotency.ts'

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

/**
 * Whether an order completes in the transaction that places it (issue 29): an
 * exchange's legs are ledger moves inside the tenant, between the person's own
 * wallets, and wait on nothing. The other internal rails keep their job: a
 * transfer may land in another person's wallet (their item is written as it
 * lands), a top-up checks its fiat account as it lands.
 */
export const settlesInPlacement = (rail: Rail) => rail === 'exchange'

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

/**
 * The idempotency key: the body's request_id, else the header, else the quote
 * (one quote, one order): `quoteId` is the quote's hash (quoteHash), never the
 * token, which is longer than a key may be.
 */
export const idempotencyKey = (request: {
  requestId?: string | undefined
  header?: string | undefined
  quoteId: string
}) => requestKey(request) ?? `quote:${request.quoteId.toLowerCase()}`

/**
 * How many times in a row a failing step is tried before the order is given
 * up: ERROR if its rail never had it, else a timeline entry (stalledEvent) and
 * the job keeps trying at the runner's capped backoff.
 */
export const MAX_ATTEMPTS = 5
