import { randomBytes } from 'node:crypto'
import type { FastifyBaseLogger } from 'fastify'
import type { Kysely, Transaction } from 'kysely'
import { v7 as uuidv7 } from 'uuid'
import type { ChainId } from '../../../contract/catalog.ts'
import { AmountError, fromMinor, toMinor } from '../../../contract/money.ts'
import type {
  DepositInstructions,
  Order,
  OrderList,
  OrderQuery,
  OrderStatus,
  OrderType,
  SandboxBankTransfer,
} from '../../../contract/orders.ts'
import type { DB } from '../../infra/db/schema.ts'
import type { Job, JobContext, JobResult, JobRunner } from '../../infra/jobs.ts'
import type { BankingProvider, PayoutSubmission } from '../../providers/banking/banking.ts'
import type { ChainPayouts } from '../../providers/chain/payouts.ts'
import * as activity from '../activity/record.ts'
import { recordDeposit } from '../card-transactions/service.ts'
import { findDestinationForWallet } from '../counterparties/service.ts'
import { requiredConfirmations } from '../deposits/rules.ts'
import { emitOrderEvent } from '../events/order-events.ts'
import { KycRequiredError } from '../kyc/errors.ts'
import { requireApprovedKyc } from '../kyc/gate.ts'
import { orderNeedsKyc } from '../kyc/rules.ts'
import { isLedgerFailure } from '../ledger/errors.ts'
import { post, systemAccount, walletAccounts } from '../ledger/service.ts'
import { pageOf } from '../page.ts'
import type { Owner } from '../wallets/repository.ts'
import { OrderError } from './errors.ts'
import { feeLines, moneySide } from './quotes.ts'
import type { CurrencyRow, EventRow, OrderRow } from './repository.ts'
import * as repo from './repository.ts'
import {
  canMove,
  formatReference,
  holdLegs,
  idempotencyKey,
  isCancelable,
  isFinal,
  isInternalRail,
  MAX_ATTEMPTS,
  normalizeReference,
  type OrderFacts,
  payeeOf,
  type Rail,
  railOf,
  receiveLegs,
  recordPlan,
  recordStatus,
  releaseLegs,
  releasesHold,
  requestHash,
  samePayee,
  settleLegs,
  stalledEvent,
  timelineEvent,
} from './rules.ts'

/** The job that walks an accepted order to its end, one step per run. */
export const ORDER_JOB = 'orders.process'

export interface OrderRails {
  bank: BankingProvider
  chain: ChainPayouts
}

export interface OrderSettings {
  /** Confirmations a sandbox withdrawal waits for at most (SANDBOX_MAX_CONFIRMATIONS). */
  maxConfirmations: number
}

export interface PlaceRequest {
  orderType: OrderType
  quoteId: string
  requestId?: string
  /** The Idempotency-Key header. */
  idempotencyHeader?: string
  note?: string
}

export interface BankTransferRequest {
  /** X-Tenant-Id when sent: the order must be the tenant's. */
  tenantId?: string
  reference: string
  amount: string
  currency: string
  senderName?: string
  senderIban?: string
}

type Trx = Transaction<DB>

type Catalog = ReadonlyMap<string, CurrencyRow>

/** What the bank or chain said to a hand-off: took it (its reference or hash), or refused it. */
type RailAnswer = { accepted: true; reference: string } | { accepted: false; code: string }

/**
 * Orders: placing one (the hold, the records, the job — one transaction),
 * reading and cancelling them, the job that carries them to their end, and the
 * sandbox bank's incoming transfers that complete deposits.
 *
 * Every change of an order happens in a transaction that holds the order's
 * row lock and is gated on the status it leaves, and every ledger entry is
 * keyed by the order and its step (`order:<id>:hold|settle|release|received`):
 * a step repeated after a crash or by a second runner finds nothing to redo.
 * Rails are called outside any transaction (a slow bank must not hold the
 * database), and only after `submitted_at` is committed: from then on the
 * order cannot be cancelled, and a crash before the outcome is recorded
 * repeats the same idempotent call rather than skipping it. Nor is it ever
 * given up: only the rail's answer ends it (see `process`).
 *
 * The currency catalogue is read once, before any transaction: on PGlite a
 * transaction holds the only connection, so a read through `this.db` inside
 * one would wait for itself.
 */
export class OrderService {
  #catalog: Promise<Catalog> | undefined

  constructor(
    private readonly db: Kysely<DB>,
    private readonly jobs: Pick<JobRunner, 'enqueue'>,
    private readonly rails: OrderRails,
    private readonly settings: OrderSettings,
  ) {}

  // -------------------------------------------------------------------------
  // Placing

  /**
   * Places the quote as an order. The same idempotency key with the same
   * request answers the first order again (`replayed`), wherever it has got to
   * since — as it was first answered.
   * @throws OrderError QUOTE_NOT_FOUND, QUOTE_MISMATCH, QUOTE_EXPIRED, QUOTE_USED,
   *   IDEMPOTENCY_CONFLICT, INSUFFICIENT_FUNDS
   */
  async place(
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
    const catalog = await this.#currencies()
    return this.db.transaction().execute(async (trx) => {
      const early = await replay(trx, owner, key, hash)
      if (early) return early
      // Money in from or out to the outside world needs a verified identity (403 KYC_REQUIRED).
      if (orderNeedsKyc(request.orderType)) {
        await requireApprovedKyc(trx, owner.tenantId, owner.userId)
      }
      const quote = await repo.lockQuote(trx, owner.tenantId, request.quoteId)
      if (!quote || quote.user_id !== owner.userId)
        throw new OrderError({ kind: 'QUOTE_NOT_FOUND' })
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
      if (rail !== 'bank_in') await this.#hold(trx, row, catalog)
      const items = await activity.orderPlaced(trx, row, now)
      await repo.insertRecords(trx, this.#records(row, 'placed', recordStatus(status), now, items))
      await this.#event(trx, row, rail, 'NEW', now)
      if (rail === 'bank_in') {
        await this.#event(trx, row, rail, 'PENDING', now)
      } else {
        await this.jobs.enqueue(trx, {
          kind: ORDER_JOB,
          tenantId: owner.tenantId,
          payload: { order_id: id },
          runAt: now,
        })
      }
      const order = await this.#render(trx, row, catalog)
      await repo.updateOrder(trx, id, { first_response: JSON.stringify(order) })
      return { order, replayed: false }
    })
  }

  async #hold(trx: Trx, row: OrderRow, catalog: Catalog) {
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

  // -------------------------------------------------------------------------
  // Reading

  /** @throws OrderError ORDER_NOT_FOUND, also for another person's order */
  async get(owner: Owner, id: string): Promise<Order> {
    const catalog = await this.#currencies()
    const row = await repo.findOrder(this.db, owner.tenantId, id, owner.userId)
    if (!row) throw new OrderError({ kind: 'ORDER_NOT_FOUND' })
    return this.#render(this.db, row, catalog)
  }

  /** The person's orders, newest first. */
  async list(owner: Owner, query: OrderQuery): Promise<OrderList> {
    const filter = {
      walletId: query.wallet_uuid,
      orderType: query.order_type,
      status: query.status,
    }
    const page = { limit: query.limit, offset: query.offset }
    const catalog = await this.#currencies()
    const [rows, total] = await Promise.all([
      repo.findOrders(this.db, owner, filter, page),
      repo.countOrders(this.db, owner, filter),
    ])
    const events = await repo.findEvents(
      this.db,
      rows.map((row) => row.id),
    )
    // One read of the beneficiary's name for the page, not one per deposit.
    const beneficiary = await repo.tenantName(this.db, owner.tenantId)
    const data: Order[] = []
    for (const row of rows) {
      const timeline = events.filter((event) => event.order_id === row.id)
      data.push(await this.#render(this.db, row, catalog, { timeline, beneficiary }))
    }
    return pageOf(data, total, page)
  }

  // -------------------------------------------------------------------------
  // Cancelling

  /**
   * Cancels an order the rail does not have yet (NEW, not handed off), or a
   * deposit still awaiting its transfer; the held total comes back at once.
   * @throws OrderError ORDER_NOT_FOUND, ORDER_NOT_CANCELABLE
   */
  async cancel(owner: Owner, id: string, now = new Date()): Promise<Order> {
    const catalog = await this.#currencies()
    return this.db.transaction().execute(async (trx) => {
      const row = await repo.lockOrder(trx, owner.tenantId, id)
      if (!row || row.user_id !== owner.userId) throw new OrderError({ kind: 'ORDER_NOT_FOUND' })
      const rail = railOf(row.order_type, row.target)
      const transferReceived =
        rail === 'bank_in' && (await repo.findBankTransfer(trx, row.id)) !== undefined
      const cancelable = isCancelable({
        rail,
        status: row.status,
        handedOff: row.submitted_at !== null,
        transferReceived,
      })
      if (!cancelable) throw new OrderError({ kind: 'ORDER_NOT_CANCELABLE', status: row.status })
      const canceled = await this.#end(trx, row, 'CANCELED', null, now)
      return this.#render(trx, canceled, catalog)
    })
  }

  // -------------------------------------------------------------------------
  // Processing (the job)

  /**
   * One run of an order's job. A step that throws is retried with the
   * runner's backoff. At the MAX_ATTEMPTS-th failure in a row the order is
   * given up if its rail never had it (`submitted_at` null): ERROR, the held
   * funds released. One handed to its bank or chain may have been paid out:
   * it keeps its status and its hold, its timeline says the rail is not
   * answering (once), and the job goes on asking at the runner's backoff,
   * capped at 5 minutes, until the rail settles it or sends it back.
   */
  readonly process = async (job: Job, context: JobContext): Promise<JobResult> => {
    const orderId = String(job.payload.order_id)
    if (!job.tenantId) throw new Error(`order job ${job.id} has no tenant`)
    const tenantId = job.tenantId
    try {
      return await this.#advance(tenantId, orderId, context)
    } catch (error) {
      if (job.attempt < MAX_ATTEMPTS) throw error
      const given = await this.#giveUp(tenantId, orderId, context.now)
      const facts = { err: error, order: orderId, attempts: job.attempt }
      if (given === 'stalled') {
        if (job.attempt === MAX_ATTEMPTS) {
          context.log.warn(facts, 'order handed to its rail gets no answer: held, asked again')
        }
        throw error
      }
      if (given === 'ERROR') context.log.error(facts, 'order processing gave up: ERROR, released')
      return undefined
    }
  }

  /**
   * ERROR with the hold released when the rail never had the order; else
   * `stalled`: the order stays as it is, with one note on its timeline
   * (not one per try, nor again after a short recovery: only if its last
   * entry is not that note already). `ended` when it needs nothing any more.
   */
  async #giveUp(tenantId: string, orderId: string, now: Date) {
    return this.db.transaction().execute(async (trx): Promise<'ERROR' | 'stalled' | 'ended'> => {
      const row = await repo.lockOrder(trx, tenantId, orderId)
      if (!row || isFinal(row.status)) return 'ended'
      const rail = railOf(row.order_type, row.target)
      if (canMove(rail, row.status, 'ERROR', row.submitted_at !== null)) {
        await this.#end(trx, row, 'ERROR', 'PROCESSING_FAILED', now)
        return 'ERROR'
      }
      const stalled = stalledEvent(rail)
      const timeline = await repo.findEvents(trx, [row.id])
      if (timeline.at(-1)?.code !== stalled.code) {
        await repo.appendEvent(trx, {
          orderId: row.id,
          tenantId: row.tenant_id,
          status: row.status,
          ...stalled,
          at: now,
        })
        await repo.updateOrder(trx, row.id, { updated_at: now })
      }
      return 'stalled'
    })
  }

  async #advance(tenantId: string, orderId: string, context: JobContext): Promise<JobResult> {
    const { now } = context
    const row = await repo.findOrder(this.db, tenantId, orderId)
    if (!row) throw new Error(`order ${orderId} not found`)
    if (isFinal(row.status)) return undefined
    const rail = railOf(row.order_type, row.target)
    // A deposit moves when its transfer arrives (receiveBankTransfer), not by a job.
    if (rail === 'bank_in') return undefined
    if (isInternalRail(rail)) {
      await this.db.transaction().execute(async (trx) => {
        const locked = await repo.lockOrder(trx, tenantId, orderId)
        if (locked?.status === 'NEW') await this.#complete(trx, locked, rail, now)
      })
      return undefined
    }
    const handed = row.status === 'NEW' ? await this.#handOff(row, rail, context) : row
    if (handed?.status !== 'PENDING') return undefined
    return rail === 'bank_out' ? this.#checkPayout(handed, now) : this.#checkChain(handed, now)
  }

  /**
   * NEW → PENDING (or FAILED when the rail refuses): commit `submitted_at`,
   * call the rail, record its answer. Answers the order as it now is, or
   * undefined when it left NEW some other way meanwhile (cancelled).
   */
  async #handOff(row: OrderRow, rail: Rail, context: JobContext): Promise<OrderRow | undefined> {
    const { now } = context
    // Built first: an order that cannot be sent fails while its rail has
    // never had it, so that giving it up may still release its hold.
    const send = this.#railCall(row, rail, await this.#currencies())
    const submittedAt = await this.db.transaction().execute(async (trx) => {
      const locked = await repo.lockOrder(trx, row.tenant_id, row.id)
      if (locked?.status !== 'NEW') return undefined
      if (locked.submitted_at) return locked.submitted_at
      // The gate again, at the last moment money can still be stopped: a HOLD,
      // REJECT or reset since placement keeps the payout from leaving. FOR
      // SHARE: a status change waits until this order is handed off or failed.
      if (orderNeedsKyc(locked.order_type)) {
        const refused = await requireApprovedKyc(trx, locked.tenant_id, locked.user_id).then(
          () => false,
          (error: unknown) => {
            if (error instanceof KycRequiredError) return true
            throw error
          },
        )
        if (refused) {
          await this.#end(trx, locked, 'FAILED', 'KYC_REQUIRED', now)
          return undefined
        }
      }
      await repo.updateOrder(trx, row.id, { submitted_at: now, updated_at: now })
      return now
    })
    if (!submittedAt) return repo.findOrder(this.db, row.tenant_id, row.id)

    const answer = await send(now)
    return this.db.transaction().execute(async (trx) => {
      const locked = await repo.lockOrder(trx, row.tenant_id, row.id)
      if (!locked) return undefined
      if (locked.status !== 'NEW') {
        // Another run recorded an answer while this one waited on the rail
        // (its lease ran out): an acceptance is still kept, never dropped.
        if (answer.accepted) await keepLateAnswer(trx, locked, rail, answer.reference, context.log)
        return locked
      }
      if (!answer.accepted) return this.#end(trx, locked, 'FAILED', answer.code, now)
      const reference = answer.reference
      const rails = rail === 'bank_out' ? { rail_reference: reference } : { tx_hash: reference }
      await repo.updateOrder(trx, locked.id, rails)
      if (rail === 'chain') {
        await repo.setChainProgress(trx, locked.tenant_id, locked.id, {
          tx_hash: reference,
          confirmations: 0,
          updated_at: now,
        })
      }
      return this.#move(trx, { ...locked, ...rails }, rail, 'PENDING', null, now)
    })
  }

  /**
   * The payout or broadcast, from the order's own snapshot of its payee —
   * never the destination as it is now, which may have been edited since.
   * Idempotent on the order id, so a repeat is the same payout.
   */
  #railCall(row: OrderRow, rail: Rail, catalog: Catalog): (now: Date) => Promise<RailAnswer> {
    const { payee } = row
    const currency = catalog.get(row.from_currency_uuid)!.code
    const amountMinor = BigInt(row.amount_from_minor)
    if (rail === 'bank_out') {
      if (payee?.kind !== 'bank_account') throw new Error(`order ${row.id} has no account to pay`)
      const request = {
        id: row.id,
        iban: payee.iban,
        bic: payee.bic,
        beneficiary: payee.beneficiary,
        amountMinor,
        currency,
        remittance: row.note ?? `Order ${row.id}`,
      }
      return (now): Promise<PayoutSubmission> => this.rails.bank.submitPayout(request, now)
    }
    if (payee?.kind !== 'chain_address') throw new Error(`order ${row.id} has no address to pay`)
    const withdrawal = {
      id: row.id,
      chain: payee.chain,
      currency,
      address: payee.address,
      amountMinor,
    }
    return async (now) => {
      const broadcast = await this.rails.chain.broadcast(withdrawal, now)
      return broadcast.accepted ? { accepted: true, reference: broadcast.txHash } : broadcast
    }
  }

  /** PENDING → COMPLETE when the payout settled, FAILED when it came back; else ask again later. */
  async #checkPayout(row: OrderRow, now: Date): Promise<JobResult> {
    if (!row.rail_reference || !row.submitted_at) {
      throw new Error(`order ${row.id} is pending without a payout`)
    }
    const state = await this.rails.bank.payoutStatus(
      { reference: row.rail_reference, submittedAt: row.submitted_at },
      now,
    )
    if (state.state === 'pending') return { again: state.checkAgainAt }
    await this.db.transaction().execute(async (trx) => {
      const locked = await repo.lockOrder(trx, row.tenant_id, row.id)
      if (locked?.status !== 'PENDING') return
      if (state.state === 'settled') await this.#complete(trx, locked, 'bank_out', now)
      else await this.#end(trx, locked, 'FAILED', state.code, now)
    })
    return undefined
  }

  /** One more block for a broadcast withdrawal; COMPLETE at the confirmations required. */
  async #checkChain(row: OrderRow, now: Date): Promise<JobResult> {
    const chain = row.target.chain as ChainId
    if (!row.tx_hash || !row.submitted_at) throw new Error(`order ${row.id} is pending unbroadcast`)
    const progress = await this.rails.chain.progress(
      { chain, txHash: row.tx_hash, broadcastAt: row.submitted_at },
      now,
    )
    const required = requiredConfirmations(
      await repo.chainConfirmations(this.db, chain),
      this.settings.maxConfirmations,
    )
    const confirmations = Math.min(progress.confirmations, required)
    const done = await this.db.transaction().execute(async (trx) => {
      const locked = await repo.lockOrder(trx, row.tenant_id, row.id)
      if (locked?.status !== 'PENDING') return true
      await repo.setChainProgress(trx, locked.tenant_id, locked.id, {
        confirmations,
        updated_at: now,
      })
      if (confirmations < required) return false
      await this.#complete(trx, locked, 'chain', now)
      return true
    })
    return done ? undefined : { again: progress.checkAgainAt }
  }

  /**
   * Settles a held order: one entry moves the amount to where it goes (the
   * outside world, a wallet, a fiat account; a conversion through the
   * treasury) and the fees to the fees account. A fiat account that stopped
   * taking top-ups fails the order instead.
   */
  async #complete(trx: Trx, row: OrderRow, rail: Rail, now: Date): Promise<OrderRow> {
    const tenantId = row.tenant_id
    const held = await walletAccounts(trx, tenantId, row.wallet_id)
    if (!held) throw new Error(`wallet ${row.wallet_id} has no ledger accounts`)
    let destination: string
    /** A top-up's fiat account: its DEPOSIT card transaction goes with the entry. */
    let topUp: string | undefined
    switch (rail) {
      case 'bank_out':
      case 'chain':
        destination = await systemAccount(trx, tenantId, 'external')
        break
      case 'wallet':
      case 'exchange': {
        const walletId = targetWallet(row)
        const target = await walletAccounts(trx, tenantId, walletId)
        if (!target) throw new Error(`order ${row.id}: target wallet ${walletId} not found`)
        destination = target.user_wallet
        break
      }
      case 'fiat_account': {
        const accountId = row.fiat_account_id ?? row.target.fiat_account_id
        const account = accountId ? await repo.findFiatAccount(trx, tenantId, accountId) : undefined
        if (account?.status !== 'ACTIVE') {
          return this.#end(trx, row, 'FAILED', 'FIAT_ACCOUNT_INACTIVE', now)
        }
        destination = account.ledger_account_id
        topUp = account.id
        break
      }
      case 'bank_in':
        throw new Error('a deposit completes by its transfer')
    }
    const conversion = row.from_currency_uuid !== row.to_currency_uuid
    const items = await activity.orderCompleted(trx, row, now)
    await post(trx, {
      tenantId,
      kind: 'order_settle',
      idempotencyKey: `order:${row.id}:settle`,
      postings: settleLegs(
        {
          held: held.held,
          fees: await systemAccount(trx, tenantId, 'fees'),
          destination,
          treasury: conversion ? await systemAccount(trx, tenantId, 'treasury') : undefined,
        },
        row.from_currency_uuid,
        row.to_currency_uuid,
        factsOf(row),
      ),
    })
    if (topUp) {
      await recordDeposit(trx, {
        fiatAccountId: topUp,
        operationId: row.id,
        amountMinor: BigInt(conversion ? row.amount_to_minor : row.amount_from_minor),
        activityId: items.source,
        at: now,
      })
    }
    const completed = await this.#move(trx, row, rail, 'COMPLETE', null, now)
    await repo.insertRecords(trx, this.#records(row, 'completed', 'complete', now, items))
    return completed
  }

  /**
   * Ends an order that did not complete — FAILED, ERROR or CANCELED — giving
   * the held total back in the same transaction.
   */
  async #end(
    trx: Trx,
    row: OrderRow,
    to: 'FAILED' | 'ERROR' | 'CANCELED',
    failureCode: string | null,
    now: Date,
  ): Promise<OrderRow> {
    const rail = railOf(row.order_type, row.target)
    assertMove(row, rail, to)
    if (releasesHold(rail, to)) {
      const accounts = await walletAccounts(trx, row.tenant_id, row.wallet_id)
      if (!accounts) throw new Error(`wallet ${row.wallet_id} has no ledger accounts`)
      await post(trx, {
        tenantId: row.tenant_id,
        kind: 'order_release',
        idempotencyKey: `order:${row.id}:release`,
        postings: releaseLegs(accounts, row.from_currency_uuid, BigInt(row.total_minor)),
      })
    }
    return this.#move(trx, row, rail, to, failureCode, now)
  }

  /** The status change itself: the order, its records, its timeline. */
  async #move(
    trx: Trx,
    row: OrderRow,
    rail: Rail,
    to: OrderStatus,
    failureCode: string | null,
    now: Date,
  ): Promise<OrderRow> {
    assertMove(row, rail, to)
    await repo.updateOrder(trx, row.id, {
      status: to,
      updated_at: now,
      ...(failureCode && { failure_code: failureCode }),
    })
    await repo.setRecordsStatus(trx, row.tenant_id, row.id, recordStatus(to), now)
    const moved = { ...row, status: to, updated_at: now, failure_code: failureCode }
    await activity.orderMoved(trx, moved, now)
    await this.#event(trx, moved, rail, to, now)
    await emitOrderEvent(trx, moved, to)
    return moved
  }

  #event(trx: Trx, row: OrderRow, rail: Rail, status: OrderStatus, at: Date) {
    return repo.appendEvent(trx, {
      orderId: row.id,
      tenantId: row.tenant_id,
      status,
      ...timelineEvent(rail, status, {
        reference: row.deposit_reference,
        failureCode: row.failure_code,
      }),
      at,
    })
  }

  #records(
    row: OrderRow,
    when: 'placed' | 'completed',
    status: ReturnType<typeof recordStatus>,
    at: Date,
    items: activity.OrderActivities,
  ): repo.NewRecord[] {
    return recordPlan(factsOf(row))
      .filter((line) => line.when === when)
      .map((line) => ({
        id: uuidv7(),
        tenantId: row.tenant_id,
        walletId: line.wallet === 'source' ? row.wallet_id : targetWallet(row),
        type: line.type,
        method: line.method,
        recordType: line.recordType,
        status,
        currencyUuid: line.currency === 'from' ? row.from_currency_uuid : row.to_currency_uuid,
        amountMinor: line.amount,
        address: line.address,
        orderId: row.id,
        activityId: items[line.wallet],
        at,
      }))
  }

  // -------------------------------------------------------------------------
  // The sandbox bank's incoming transfers

  /**
   * A transfer reached the platform's bank account: the deposit order its
   * reference names completes — the money (less the fees) in the wallet —
   * in the same transaction that records the transfer.
   * @throws OrderError REFERENCE_UNKNOWN, AMOUNT_MISMATCH, TRANSFER_ALREADY_RECEIVED,
   *   ORDER_NOT_AWAITING_TRANSFER
   */
  async receiveBankTransfer(
    request: BankTransferRequest,
    now = new Date(),
  ): Promise<SandboxBankTransfer> {
    const reference = normalizeReference(request.reference)
    if (!reference) throw new OrderError({ kind: 'REFERENCE_UNKNOWN' })
    const catalog = await this.#currencies()
    return this.db.transaction().execute(async (trx) => {
      const row = await repo.lockOrderByReference(trx, reference)
      const tenant = request.tenantId?.toLowerCase()
      if (!row || (tenant && row.tenant_id !== tenant)) {
        throw new OrderError({ kind: 'REFERENCE_UNKNOWN' })
      }
      if (await repo.findBankTransfer(trx, row.id)) {
        throw new OrderError({ kind: 'TRANSFER_ALREADY_RECEIVED' })
      }
      if (row.status !== 'PENDING') {
        throw new OrderError({ kind: 'ORDER_NOT_AWAITING_TRANSFER', status: row.status })
      }
      const currency = catalog.get(row.from_currency_uuid)!
      if (request.currency.trim().toUpperCase() !== currency.code) {
        throw new OrderError({
          kind: 'AMOUNT_MISMATCH',
          field: 'currency',
          expected: currency.code,
        })
      }
      const total = BigInt(row.total_minor)
      if (parseMinor(request.amount, currency.decimals) !== total) {
        throw new OrderError({
          kind: 'AMOUNT_MISMATCH',
          field: 'amount',
          expected: fromMinor(total, currency.decimals),
        })
      }
      const id = uuidv7()
      await repo.insertBankTransfer(trx, {
        id,
        tenantId: row.tenant_id,
        orderId: row.id,
        reference,
        amountMinor: total,
        currencyUuid: currency.uuid,
        senderName: request.senderName ?? null,
        senderIban: request.senderIban ?? null,
        at: now,
      })
      const wallet = await walletAccounts(trx, row.tenant_id, row.wallet_id)
      if (!wallet) throw new Error(`wallet ${row.wallet_id} has no ledger accounts`)
      await post(trx, {
        tenantId: row.tenant_id,
        kind: 'order_received',
        idempotencyKey: `order:${row.id}:received`,
        postings: receiveLegs(
          {
            external: await systemAccount(trx, row.tenant_id, 'external'),
            user_wallet: wallet.user_wallet,
            fees: await systemAccount(trx, row.tenant_id, 'fees'),
          },
          row.from_currency_uuid,
          factsOf(row),
        ),
      })
      await this.#move(trx, row, 'bank_in', 'COMPLETE', null, now)
      await activity.depositSender(trx, row, {
        name: request.senderName ?? null,
        iban: request.senderIban ?? null,
      })
      return {
        id,
        reference,
        amount: fromMinor(total, currency.decimals),
        currency: currency.code,
        order_id: row.id,
        received_at: now.toISOString(),
      }
    })
  }

  // -------------------------------------------------------------------------
  // Rendering

  /**
   * The order as the API answers it; `known` spares the reads a list did once
   * for its page. The catalogue comes from the caller, who read it before
   * opening any transaction `db` may be.
   */
  async #render(
    db: Kysely<DB> | Trx,
    row: OrderRow,
    catalog: Catalog,
    known: { timeline?: readonly EventRow[]; beneficiary?: string } = {},
  ): Promise<Order> {
    const from = catalog.get(row.from_currency_uuid)!
    const to = catalog.get(row.to_currency_uuid)!
    const timeline = known.timeline ?? (await repo.findEvents(db, [row.id]))
    const rail = railOf(row.order_type, row.target)
    const total = fromMinor(BigInt(row.total_minor), from.decimals)
    let instructions: DepositInstructions | null = null
    if (rail === 'bank_in' && row.deposit_reference) {
      const account = this.rails.bank.collectionAccount(
        row.order_type === 'DEPOSIT_FIAT_SEPA' ? 'SEPA' : 'SWIFT',
        from.code,
      )
      instructions = {
        beneficiary: known.beneficiary ?? (await repo.tenantName(db, row.tenant_id)),
        iban: account.iban,
        account_number: account.accountNumber,
        bic: account.bic,
        bank_name: account.bankName,
        bank_address: account.bankAddress,
        reference: row.deposit_reference,
        amount: total,
        currency: from.code,
      }
    }
    return {
      id: row.id,
      order_type: row.order_type,
      status: row.status,
      wallet_uuid: row.wallet_id,
      quote_id: row.quote_id,
      request_id: row.request_id,
      from: moneySide(from, row.amount_from_minor),
      to: moneySide(to, row.amount_to_minor),
      rate: row.rate,
      fees: feeLines(row.fees, from),
      total,
      target: row.target,
      note: row.note,
      deposit_instructions: instructions,
      tx_hash: row.tx_hash,
      failure_code: row.failure_code,
      timeline: timeline.map((event) => ({
        status: event.status,
        code: event.code,
        at: event.at.toISOString(),
        note: event.note,
      })),
      created_at: row.created_at.toISOString(),
      updated_at: row.updated_at.toISOString(),
    }
  }

  /**
   * The catalogue's currencies: fixed by the migrations, so read once — and
   * read again after a failed read (a dropped connection must not leave every
   * later call failing until a restart). Call it outside any transaction.
   */
  #currencies(): Promise<Catalog> {
    if (!this.#catalog) {
      const loading = repo
        .findCurrencies(this.db)
        .then((rows): Catalog => new Map(rows.map((row) => [row.uuid, row])))
      this.#catalog = loading
      loading.catch(() => {
        if (this.#catalog === loading) this.#catalog = undefined
      })
    }
    return this.#catalog
  }
}

function assertMove(row: OrderRow, rail: Rail, to: OrderStatus) {
  if (!canMove(rail, row.status, to, row.submitted_at !== null)) {
    throw new Error(`order ${row.id} cannot move from ${row.status} to ${to}`)
  }
}

/**
 * The rail took an order that another run had already moved on from NEW.
 * Its reference is stored if the order has none (what reconciliation with
 * the bank or chain starts from) and the mismatch is logged as an error.
 */
async function keepLateAnswer(
  trx: Trx,
  row: OrderRow,
  rail: Rail,
  reference: string,
  log: FastifyBaseLogger,
) {
  const stored = rail === 'bank_out' ? row.rail_reference : row.tx_hash
  if (stored === reference) return
  log.error(
    { order: row.id, status: row.status, reference, stored },
    'the rail accepted an order that had already moved on: reconcile it',
  )
  if (stored !== null) return
  await repo.updateOrder(
    trx,
    row.id,
    rail === 'bank_out' ? { rail_reference: reference } : { tx_hash: reference },
  )
}

/** The first answer again, or 409 when the key came with another request. */
async function replay(trx: Trx, owner: Owner, key: string, hash: string) {
  const existing = await repo.findOrderByKey(trx, owner, key)
  if (!existing) return undefined
  if (existing.request_hash !== hash) throw new OrderError({ kind: 'IDEMPOTENCY_CONFLICT' })
  return { order: existing.first_response as Order, replayed: true }
}

function factsOf(row: OrderRow): OrderFacts {
  return {
    orderType: row.order_type,
    target: row.target,
    amountFrom: BigInt(row.amount_from_minor),
    amountTo: BigInt(row.amount_to_minor),
    total: BigInt(row.total_minor),
    fees: row.fees.map((fee) => ({ kind: fee.kind, amount: BigInt(fee.amount_minor) })),
  }
}

/** Where an exchange's proceeds or an internal transfer land; an exchange defaults to its own wallet. */
const targetWallet = (row: OrderRow) => row.target.wallet_uuid ?? row.wallet_id

/** An amount as a bank would read it; one with more places than the currency has matches nothing. */
function parseMinor(amount: string, decimals: number): bigint | undefined {
  try {
    return toMinor(amount, decimals)
  } catch (error) {
    if (error instanceof AmountError) return undefined
    throw error
  }
}
