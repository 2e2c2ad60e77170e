import { randomBytes } from 'node:crypto'
import { v7 as uuidv7 } from 'uuid'
import { fromMinor } from '../../../contract/money.ts'
import type { Order, OrderStatus, OrderType } from '../../../contract/orders.ts'
import { findDestinationForWallet } from '../counterparties/service.ts'
import { requireApprovedKyc } from '../kyc/gate.ts'
import { orderNeedsKyc } from '../kyc/rules.ts'
import { isLedgerFailure } from '../ledger/errors.ts'
import { post, walletAccounts } from '../ledger/service.ts'
import type { Owner } from '../wallets/repository.ts'
import { OrderError } from './errors.ts'
import type { Catalog, OrderDeps, Trx } from './order-deps.ts'
import { ORDER_JOB } from './order-job.ts'
import { appendTimeline, orderRecords } from './order-moves.ts'
import { renderOrder } from './render-order.ts'
import type { OrderRow } from './repository.ts'
import * as repo from './repository.ts'
import {
  formatReference,
  holdLegs,
  idempotencyKey,
  payeeOf,
  railOf,
  recordStatus,
  requestHash,
  samePayee,
} from './rules.ts'

export interface PlaceRequest {
  orderType: OrderType
  quoteId: string
  requestId?: string
  /** The Idempotency-Key header. */
  idempotencyHeader?: string
  note?: string
}

/**
 * Places the quote as an order. The same idempotency key with the same
 * request answers the first order again (`replayed`), wherever it has got to
 * since — as it was first answered.
 * @throws OrderError QUOTE_NOT_FOUND, QUOTE_MISMATCH, QUOTE_EXPIRED, QUOTE_USED,
 *   IDEMPOTENCY_CONFLICT, INSUFFICIENT_FUNDS
 */
export async function placeOrder(
  deps: OrderDeps,
  owner: Owner,
  request: PlaceRequest,
  now = new Date(),
): Promise<{ order: Order; replayed: boolean }> {
  const key = idempotencyKey({
    requestId: request.requestId,
    header: request.idempotencyHeader,
    quoteId: request.quoteId,
  })
  const hash = requestHash({
    orderType: request.orderType,
    quoteId: request.quoteId,
    note: request.note,
  })
  const catalog = await deps.catalog()
  return deps.db.transaction().execute(async (trx) => {
    const early = await replay(trx, owner, key, hash)
    if (early) return early
    // Money in from or out to the outside world needs a verified identity (403 KYC_REQUIRED).
    if (orderNeedsKyc(request.orderType)) {
      await requireApprovedKyc(trx, owner.tenantId, owner.userId)
    }
    const quote = await repo.lockQuote(trx, owner.tenantId, request.quoteId)
    if (!quote || quote.user_id !== owner.userId) throw new OrderError({ kind: 'QUOTE_NOT_FOUND' })
    // A request under the same key may have placed this quote while we waited for its lock.
    const queued = await replay(trx, owner, key, hash)
    if (queued) return queued
    if (quote.order_type !== request.orderType) {
      throw new OrderError({
        kind: 'QUOTE_MISMATCH',
        quoteType: quote.order_type,
        pathType: request.orderType,
      })
    }
    if (await repo.findOrderByQuote(trx, owner.tenantId, quote.id)) {
      throw new OrderError({ kind: 'QUOTE_USED' })
    }
    if (quote.expires_at.getTime() <= now.getTime()) {
      throw new OrderError({ kind: 'QUOTE_EXPIRED', expiredAt: quote.expires_at })
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

    const rail = railOf(quote.order_type, quote.target)
    // A top-up's fiat account may have closed since the quote (its stand-alone card was closed).
    if (rail === 'fiat_account') {
      const accountId = quote.target.fiat_account_id
      const account = accountId
        ? await repo.findFiatAccount(trx, owner.tenantId, accountId)
        : undefined
      if (account?.status !== 'ACTIVE') {
        throw new OrderError({ kind: 'FIAT_ACCOUNT_UNAVAILABLE', status: account?.status })
      }
    }
    const id = uuidv7()
    const status: OrderStatus = rail === 'bank_in' ? 'PENDING' : 'NEW'
    let reference: string | null = null
    for (let attempt = 0; ; attempt++) {
      reference = rail === 'bank_in' ? formatReference(randomBytes(5)) : null
      const inserted = await repo.insertOrder(trx, {
        id,
        tenantId: owner.tenantId,
        userId: owner.userId,
        quote,
        requestId: key,
        requestHash: hash,
        status,
        note: request.note ?? null,
        depositReference: reference,
        at: now,
      })
      if (inserted) break
      // Taken: the key by a concurrent request under it (committed while we
      // inserted), the quote by another key's order, or — once in 2^40 — the reference.
      const raced = await replay(trx, owner, key, hash)
      if (raced) return raced
      if (await repo.findOrderByQuote(trx, owner.tenantId, quote.id)) {
        throw new OrderError({ kind: 'QUOTE_USED' })
      }
      if (rail !== 'bank_in' || attempt >= 2) throw new Error(`order ${id} could not be inserted`)
    }
    await repo.markQuotePlaced(trx, owner.tenantId, quote.id, now)

    const row = await repo.findOrder(trx, owner.tenantId, id)
    if (!row) throw new Error(`order ${id} vanished`)
    if (rail !== 'bank_in') await hold(trx, row, catalog)
    await repo.insertRecords(trx, orderRecords(row, 'placed', recordStatus(status), now))
    await appendTimeline(trx, row, rail, 'NEW', now)
    if (rail === 'bank_in') {
      await appendTimeline(trx, row, rail, 'PENDING', now)
    } else {
      await deps.jobs.enqueue(trx, {
        kind: ORDER_JOB,
        tenantId: owner.tenantId,
        payload: { order_id: id },
        runAt: now,
      })
    }
    const order = await renderOrder(deps, trx, row, catalog)
    await repo.updateOrder(trx, id, { first_response: JSON.stringify(order) })
    return { order, replayed: false }
  })
}

async function hold(trx: Trx, row: OrderRow, catalog: Catalog) {
  const accounts = await walletAccounts(trx, row.tenant_id, row.wallet_id)
  if (!accounts) throw new Error(`wallet ${row.wallet_id} has no ledger accounts`)
  const total = BigInt(row.total_minor)
  try {
    await post(trx, {
      tenantId: row.tenant_id,
      kind: 'order_hold',
      idempotencyKey: `order:${row.id}:hold`,
      postings: holdLegs(accounts, row.from_currency_uuid, total),
    })
  } catch (error) {
    if (isLedgerFailure(error, 'INSUFFICIENT_FUNDS')) {
      const currency = catalog.get(row.from_currency_uuid)!
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

/** The first answer again, or 409 when the key came with another request. */
async function replay(trx: Trx, owner: Owner, key: string, hash: string) {
  const existing = await repo.findOrderByKey(trx, owner, key)
  if (!existing) return undefined
  if (existing.request_hash !== hash) throw new OrderError({ kind: 'IDEMPOTENCY_CONFLICT' })
  return { order: existing.first_response as Order, replayed: true }
}
