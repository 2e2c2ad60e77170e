import { randomBytes } from 'node:crypto'
import { v7 as uuidv7 } from 'uuid'
import { fromMinor } from '../../../contract/money.ts'
import type { Order, OrderStatus, OrderType } from '../../../contract/orders.ts'
import { enqueueWrite } from '../../infra/jobs.ts'
import { findDestinationForWallet } from '../counterparties/service.ts'
import type { NewActivity } from '../feed/store.ts'
import { IdempotencyConflictError } from '../idempotency.ts'
import { requireApprovedKyc } from '../kyc/gate.ts'
import { orderNeedsKyc } from '../kyc/rules.ts'
import { isLedgerFailure } from '../ledger/errors.ts'
import { type MoneyTransaction, runMoneyCommand } from '../ledger/money-command.ts'
import type { Posting } from '../ledger/rules.ts'
import type { EntryInput, WalletAccounts } from '../ledger/service.ts'
import type { Owner } from '../owner.ts'
import { OrderError } from './errors.ts'
import { holdLegs, settleLegs } from './leg-rules.ts'
import type { OrderDeps } from './order-deps.ts'
import { completedEvent, placedEvent } from './order-events.ts'
import * as activity from './order-feed.ts'
import { ORDER_JOB } from './order-job.ts'
import { factsOf, orderRecords, targetWallet } from './order-moves.ts'
import { type FirmQuote, quoteHash } from './quote-token.ts'
import { formatReference } from './reference-rules.ts'
import { renderOrder } from './render-order.ts'
import type { EventRow, OrderRow } from './repository.ts'
import * as repo from './repository.ts'
import {
  idempotencyKey,
  payeeOf,
  type Rail,
  railOf,
  recordStatus,
  requestHash,
  samePayee,
  settlesInPlacement,
} from './rules.ts'
import { timelineEvent } from './timeline-rules.ts'

export interface PlaceRequest {
  orderType: OrderType
  quoteId: string
  requestId?: string
  /** The Idempotency-Key header. */
  idempotencyHeader?: string
  note?: string
}

/** Placements redrawn after a deposit reference clash (40 random bits: it takes luck to see one). */
const REFERENCE_DRAWS = 3

/** A deposit reference was taken: the placement is redrawn whole. */
class ReferenceTaken extends Error {}

/**
 * Places the quote as an order, one money command (ledger/money-command.ts)
 * under the client's key (scope `order`): the same key with the same request
 * answers the first order again (`replayed`), wherever it has got to since —
 * as it was first answered.
 *
 * Everything that can be is done before the transaction: the quote and the
 * wallet's accounts are read, the order row, its records and its timeline
 * are built, and the answer is rendered. The transaction then writes, in one
 * statement, the key's claim, the order with its records and timeline (its
 * unique quote hash refuses a second order of the quote), its events, a job
 * when one is to take it on, and its ledger entry, whose balance rows stay
 * locked for the rest of that statement and the commit. An exchange waits on
 * nothing outside the ledger (settlesInPlacement): it is written complete,
 * tells order.completed instead of enqueuing a job, and its entry is the
 * settlement itself.
 * @throws OrderError QUOTE_NOT_FOUND, QUOTE_MISMATCH, QUOTE_EXPIRED, QUOTE_USED,
 *   IDEMPOTENCY_CONFLICT, INSUFFICIENT_FUNDS, DESTINATION_GONE, DESTINATION_CHANGED,
 *   FIAT_ACCOUNT_UNAVAILABLE, and KycRequiredError
 */
export async function placeOrder(
  deps: OrderDeps,
  owner: Owner,
  request: PlaceRequest,
  now = new Date(),
): Promise<{ order: Order; replayed: boolean }> {
  // The token stands for the quote where a short, fixed key is kept.
  const quoteKey = quoteHash(request.quoteId)
  const claim = {
    scope: 'order' as const,
    ownerId: owner.userId,
    key: idempotencyKey({
      requestId: request.requestId,
      header: request.idempotencyHeader,
      quoteId: quoteKey,
    }),
    hash: requestHash({ orderType: request.orderType, quoteId: quoteKey, note: request.note }),
  }
  for (let draw = 1; ; draw++) {
    try {
      const placed = await runMoneyCommand(deps.db, {
        name: 'orders.place',
        tenantId: owner.tenantId,
        claim,
        prepare: () => planPlacement(deps, owner, request, { ...claim, quoteKey }, now),
        // Rendered before the transaction: kept with the key's claim, one write fewer.
        answer: (plan) => plan.answer,
        execute: (money, plan) => writePlacement(deps, money, owner, plan),
        // An exchange is its rows, its events and its settlement: one statement, no BEGIN.
        oneStatement: true,
      })
      return { order: placed.answer, replayed: placed.replayed }
    } catch (error) {
      if (error instanceof IdempotencyConflictError) {
        throw new OrderError({ kind: 'IDEMPOTENCY_CONFLICT' })
      }
      if (!(error instanceof ReferenceTaken) || draw >= REFERENCE_DRAWS) throw error
    }
  }
}

/** What placing writes, decided and rendered before its transaction. */
interface Placement {
  quote: FirmQuote
  rail: Rail
  row: OrderRow
  /** The payer's activity item, written with the order. */
  item: NewActivity
  records: repo.NewRecord[]
  events: repo.NewEvent[]
  /** Its order.created event. */
  placed: ReturnType<typeof placedEvent>
  /** Its order.completed event, when it completes as it is placed (settlesInPlacement). */
  completed: ReturnType<typeof completedEvent> | undefined
  /** Its one ledger entry: the hold, or the settlement itself; none for a deposit, which holds nothing. */
  entry: Omit<EntryInput, 'tenantId'> | undefined
  answer: Order
  now: Date
}

/**
 * Opens and checks the quote (its signature, owner, expiry and type), reads
 * what does not change under the placement (the wallet's accounts, a top-up's
 * account), and builds the rows and the answer. What may change meanwhile —
 * another order placing the quote, a destination deleted or edited, the
 * identity's status — is checked in the transaction, under the locks and the
 * unique key that order it.
 */
async function planPlacement(
  deps: OrderDeps,
  owner: Owner,
  request: PlaceRequest,
  keys: { key: string; hash: string; quoteKey: string },
  now: Date,
): Promise<Placement> {
  const catalog = await deps.catalog()
  // Forged, altered, another person's or tenant's, or signed with a retired key: as unknown.
  const quote = deps.settings.quoteTokens.open(owner, request.quoteId)
  if (!quote) throw new OrderError({ kind: 'QUOTE_NOT_FOUND' })
  if (quote.expires_at.getTime() <= now.getTime()) {
    throw new OrderError({ kind: 'QUOTE_EXPIRED', expiredAt: quote.expires_at })
  }
  if (quote.order_type !== request.orderType) {
    throw new OrderError({
      kind: 'QUOTE_MISMATCH',
      quoteType: quote.order_type,
      pathType: request.orderType,
    })
  }
  const rail = railOf(quote.order_type, quote.target)
  // A top-up's fiat account may have closed since the quote (its stand-alone card was closed).
  if (rail === 'fiat_account') {
    const accountId = quote.target.fiat_account_id
    const account = accountId
      ? await repo.findFiatAccount(deps.db, owner.tenantId, accountId)
      : undefined
    if (account?.status !== 'ACTIVE') {
      throw new OrderError({ kind: 'FIAT_ACCOUNT_UNAVAILABLE', status: account?.status })
    }
  }
  const accounts =
    rail === 'bank_in'
      ? undefined
      : await deps.walletAccounts(deps.db, owner.tenantId, quote.wallet_id)
  if (rail !== 'bank_in' && !accounts) {
    throw new Error(`wallet ${quote.wallet_id} has no ledger accounts`)
  }

  const status: OrderStatus = rail === 'bank_in' ? 'PENDING' : 'NEW'
  const placedRow: OrderRow = {
    id: uuidv7(),
    tenant_id: owner.tenantId,
    user_id: owner.userId,
    wallet_id: quote.wallet_id,
    order_type: quote.order_type,
    status,
    quote_id: quote.id,
    quote_hash: keys.quoteKey,
    request_id: keys.key,
    request_hash: keys.hash,
    from_currency_uuid: quote.from_currency_uuid,
    to_currency_uuid: quote.to_currency_uuid,
    amount_from_minor: quote.amount_from_minor,
    amount_to_minor: quote.amount_to_minor,
    rate: quote.rate,
    fees: quote.fees,
    total_minor: quote.total_minor,
    target: quote.target,
    payee: quote.payee,
    counterparty_destination_id: quote.target.counterparty_destination_id ?? null,
    fiat_account_id: quote.target.fiat_account_id ?? null,
    note: request.note ?? null,
    deposit_reference: rail === 'bank_in' ? formatReference(randomBytes(5)) : null,
    tx_hash: null,
    submitted_at: null,
    rail_reference: null,
    failure_code: null,
    created_at: now,
    updated_at: now,
  }
  // An exchange is written as it ends: complete, with the steps its job used to take.
  const settles = settlesInPlacement(rail)
  const row: OrderRow = settles ? { ...placedRow, status: 'COMPLETE' } : placedRow
  // A deposit's timeline: placed, then awaiting the transfer; an exchange's: funds held,
  // exchanged; any other order's: funds held.
  const statuses: OrderStatus[] =
    rail === 'bank_in' ? ['NEW', 'PENDING'] : settles ? ['NEW', 'COMPLETE'] : ['NEW']
  const events = statuses.map((eventStatus, seq) => ({
    orderId: row.id,
    seq,
    tenantId: row.tenant_id,
    status: eventStatus,
    ...timelineEvent(rail, eventStatus, { reference: row.deposit_reference, failureCode: null }),
    at: now,
  }))
  const timeline: EventRow[] = events.map((event) => ({ ...event, order_id: event.orderId }))
  const beneficiary =
    rail === 'bank_in' ? await repo.tenantName(deps.db, owner.tenantId) : undefined
  const answer = await renderOrder(deps, deps.db, row, catalog, { timeline, beneficiary })
  const item = await activity.orderPlacedItem(deps.db, row, now)
  const items = { source: item.id, target: item.id }
  const currencies = [...catalog.values()]
  const total = BigInt(row.total_minor)
  return {
    quote,
    rail,
    row,
    item,
    records: settles
      ? [
          ...orderRecords(row, 'placed', 'complete', now, items),
          ...orderRecords(row, 'completed', 'complete', now, items),
        ]
      : orderRecords(row, 'placed', recordStatus(status), now, items),
    events,
    placed: placedEvent(placedRow, currencies, item),
    completed: settles ? completedEvent(row, currencies, item) : undefined,
    entry: !accounts
      ? undefined
      : settles
        ? {
            kind: 'order_settle',
            idempotencyKey: `order:${row.id}:settle`,
            postings: await settleFromWallet(deps, row, accounts),
          }
        : {
            kind: 'order_hold',
            idempotencyKey: `order:${row.id}:hold`,
            postings: holdLegs(accounts, row.from_currency_uuid, total),
          },
    answer,
    now,
  }
}

/**
 * An exchange's settlement, paid from what the person can spend (nothing was
 * held first): the same legs the settling job posts from the held account.
 */
async function settleFromWallet(
  deps: OrderDeps,
  row: OrderRow,
  accounts: WalletAccounts,
): Promise<Posting[]> {
  const system = await deps.tenantAccounts(row.tenant_id)
  const lands = targetWallet(row)
  const target =
    lands === row.wallet_id ? accounts : await deps.walletAccounts(deps.db, row.tenant_id, lands)
  if (!target) throw new Error(`order ${row.id}: target wallet ${lands} not found`)
  return settleLegs(
    {
      held: accounts.user_wallet,
      fees: system.fees,
      destination: target.user_wallet,
      treasury: system.treasury,
    },
    row.from_currency_uuid,
    row.to_currency_uuid,
    factsOf(row),
  )
}

/** The placing transaction, after the key's claim: its order is the lock order. */
async function writePlacement(
  deps: OrderDeps,
  money: MoneyTransaction,
  owner: Owner,
  plan: Placement,
): Promise<Order> {
  const { trx } = money
  const { quote, row, now } = plan
  // Money in from or out to the outside world needs a verified identity (403
  // KYC_REQUIRED), read FOR SHARE: a status change waits for this placement.
  if (orderNeedsKyc(row.order_type)) {
    await requireApprovedKyc(trx, owner.tenantId, owner.userId)
  }
  // A saved destination may have been deleted since the quote. Its row lock
  // orders this placement and a DELETE (which looks for open orders under
  // the same lock): either the delete sees this order, or this sees the delete.
  const destinationId = quote.target.counterparty_destination_id
  if (destinationId) {
    const live = await findDestinationForWallet(trx, {
      tenantId: owner.tenantId,
      userId: owner.userId,
      destinationId,
      lock: true,
    })
    if (!live) throw new OrderError({ kind: 'DESTINATION_GONE' })
    // Edited since the quote (its IBAN, BIC, address or the counterparty's
    // name): the person confirmed the old one, so they quote again.
    if (!samePayee(quote.payee, payeeOf(live))) {
      throw new OrderError({ kind: 'DESTINATION_CHANGED' })
    }
  }
  // One statement: the key's claim, the order with its records and timeline, its
  // events, and the entry (its balance rows locked from there to the commit).
  money.write(...repo.placedOrderWrites(trx, row, plan.item, plan.records, plan.events))
  await money.emit(plan.placed)
  // An exchange is done here; any other order but a deposit has a job to take it on.
  if (plan.completed) await money.emit(plan.completed)
  else if (plan.entry) {
    const job = { kind: ORDER_JOB, tenantId: owner.tenantId, payload: { order_id: row.id } }
    money.write(enqueueWrite(trx, { ...job, runAt: now }))
  }
  try {
    // A deposit holds nothing: it waits for its transfer (bank-transfers.ts).
    if (plan.entry) await postEntry(money, row, plan.entry, deps)
    else await money.flush()
  } catch (error) {
    if (repo.isReferenceTaken(error)) throw new ReferenceTaken()
    // Placed by another key's order (under this key, the runner finds the first answer).
    if (repo.isQuotePlaced(error)) throw new OrderError({ kind: 'QUOTE_USED' })
    throw error
  }
  return plan.answer
}

/** The placement's one entry; the paying wallet's shortfall is INSUFFICIENT_FUNDS. */
async function postEntry(
  money: MoneyTransaction,
  row: OrderRow,
  entry: Omit<EntryInput, 'tenantId'>,
  deps: OrderDeps,
) {
  const total = BigInt(row.total_minor)
  try {
    await money.post(entry)
  } catch (error) {
    if (isLedgerFailure(error, 'INSUFFICIENT_FUNDS')) {
      const currency = (await deps.catalog()).get(row.from_currency_uuid)!
      throw new OrderError({
        kind: 'INSUFFICIENT_FUNDS',
        currency: currency.code,
        needed: fromMinor(total, currency.decimals),
        available: fromMinor(error.failure.balance, currency.decimals),
      })
    }
    throw error
  }
}
