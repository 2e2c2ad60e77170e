import type { FastifyBaseLogger } from 'fastify'
import type { ChainId } from '../../../contract/catalog.ts'
import type { Job, JobContext, JobResult } from '../../infra/jobs.ts'
import type { PayoutSubmission } from '../../providers/banking/banking.ts'
import { requiredConfirmations } from '../deposits/rules.ts'
import { KycRequiredError } from '../kyc/errors.ts'
import { requireApprovedKyc } from '../kyc/gate.ts'
import { orderNeedsKyc } from '../kyc/rules.ts'
import { NothingToMove } from '../ledger/money-command.ts'
import type { Catalog, OrderDeps, Trx } from './order-deps.ts'
import { completeOrder, endOrder, moveOrder, orderCommand } from './order-moves.ts'
import type { OrderRow } from './repository.ts'
import * as repo from './repository.ts'
import { canMove, isFinal, isInternalRail, MAX_ATTEMPTS, type Rail, railOf } from './rules.ts'
import { stalledEvent } from './timeline-rules.ts'

/** The job that walks an accepted order to its end, one step per run. */
export const ORDER_JOB = 'orders.process'

/** What the bank or chain said to a hand-off: took it (its reference or hash), or refused it. */
type RailAnswer = { accepted: true; reference: string } | { accepted: false; code: string }

/**
 * One run of an order's job. A step that throws is retried with the
 * runner's backoff. At the MAX_ATTEMPTS-th failure in a row the order is
 * given up if its rail never had it (`submitted_at` null): ERROR, the held
 * funds released. One handed to its bank or chain may have been paid out:
 * it keeps its status and its hold, its timeline says the rail is not
 * answering (once), and the job goes on asking at the runner's backoff,
 * capped at 5 minutes, until the rail settles it or sends it back.
 *
 * Rails are called outside any transaction (a slow bank must not hold the
 * database), and only after `submitted_at` is committed: from then on the
 * order cannot be cancelled, and a crash before the outcome is recorded
 * repeats the same idempotent call rather than skipping it. Nor is it ever
 * given up: only the rail's answer ends it.
 */
export async function processOrder(
  deps: OrderDeps,
  job: Job,
  context: JobContext,
): Promise<JobResult> {
  const orderId = String(job.payload.order_id)
  if (!job.tenantId) throw new Error(`order job ${job.id} has no tenant`)
  const tenantId = job.tenantId
  try {
    return await advance(deps, tenantId, orderId, context)
  } catch (error) {
    if (job.attempt < MAX_ATTEMPTS) throw error
    const given = await giveUp(deps, tenantId, orderId, context.now)
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
async function giveUp(deps: OrderDeps, tenantId: string, orderId: string, now: Date) {
  const order = { tenantId, id: orderId }
  type GivenUp = 'ERROR' | 'stalled' | 'ended'
  const given = await orderCommand<GivenUp>(deps, 'orders.give_up', order, async (money, row) => {
    if (!row || isFinal(row.status)) throw new NothingToMove('ended')
    const rail = railOf(row.order_type, row.target)
    if (!canMove(rail, row.status, 'ERROR', row.submitted_at !== null)) {
      throw new NothingToMove('stalled')
    }
    await endOrder(deps, money, row, 'ERROR', 'PROCESSING_FAILED', now)
    return 'ERROR'
  })
  if (given !== 'stalled') return given
  // Handed to its rail, which never gives it back: the note moves no money.
  return deps.db.transaction().execute(async (trx): Promise<GivenUp> => {
    const row = await repo.lockOrder(trx, tenantId, orderId)
    if (!row || isFinal(row.status)) return 'ended'
    const stalled = stalledEvent(railOf(row.order_type, row.target))
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

async function advance(
  deps: OrderDeps,
  tenantId: string,
  orderId: string,
  context: JobContext,
): Promise<JobResult> {
  const { now } = context
  // An internal order completes in the money command that reads it; any other is only read.
  const order = { tenantId, id: orderId }
  const row = await orderCommand<OrderRow | undefined>(
    deps,
    'orders.complete',
    order,
    async (money, locked) => {
      if (!locked) throw new Error(`order ${orderId} not found`)
      const rail = railOf(locked.order_type, locked.target)
      if (locked.status !== 'NEW' || !isInternalRail(rail)) throw new NothingToMove(locked)
      await completeOrder(deps, money, locked, rail, now)
      return undefined
    },
  )
  if (!row || isFinal(row.status)) return undefined
  const rail = railOf(row.order_type, row.target)
  // A deposit moves when its transfer arrives (receiveBankTransfer), not by a job.
  if (rail === 'bank_in' || isInternalRail(rail)) return undefined
  const handed = row.status === 'NEW' ? await handOff(deps, row, rail, context) : row
  if (handed?.status !== 'PENDING') return undefined
  return rail === 'bank_out' ? checkPayout(deps, handed, now) : checkChain(deps, handed, now)
}

/**
 * NEW → PENDING (or FAILED when the rail refuses): commit `submitted_at`,
 * call the rail, record its answer. Answers the order as it now is, or
 * undefined when it left NEW some other way meanwhile (cancelled).
 */
async function handOff(
  deps: OrderDeps,
  row: OrderRow,
  rail: Rail,
  context: JobContext,
): Promise<OrderRow | undefined> {
  const { now } = context
  // Built first: an order that cannot be sent fails while its rail has
  // never had it, so that giving it up may still release its hold.
  const send = railCall(deps, row, rail, await deps.catalog())
  const submittedAt = await deps.db.transaction().execute(async (trx) => {
    const locked = await repo.lockOrder(trx, row.tenant_id, row.id)
    if (locked?.status !== 'NEW') return undefined
    if (locked.submitted_at) return locked.submitted_at
    // The gate again, at the last moment money can still be stopped: a HOLD,
    // REJECT or reset since placement keeps the payout from leaving. FOR
    // SHARE: a status change waits until this order is handed off or failed.
    if (await kycRefused(trx, locked)) return 'refused'
    await repo.updateOrder(trx, row.id, { submitted_at: now, updated_at: now })
    return now
  })
  if (submittedAt === 'refused') {
    // Failed by its own money command, the gate read again under the order's
    // lock; one approved in between goes on to its rail.
    const failed = await orderCommand(deps, 'orders.fail', orderOf(row), async (money, locked) => {
      if (
        locked?.status !== 'NEW' ||
        locked.submitted_at ||
        !(await kycRefused(money.trx, locked))
      ) {
        throw new NothingToMove(false)
      }
      await endOrder(deps, money, locked, 'FAILED', 'KYC_REQUIRED', now)
      return true
    })
    if (!failed) return handOff(deps, row, rail, context)
  }
  if (!(submittedAt instanceof Date)) return repo.findOrder(deps.db, row.tenant_id, row.id)

  const answer = await send(now)
  if (!answer.accepted) {
    return orderCommand(deps, 'orders.fail', orderOf(row), async (money, locked) => {
      // Another run recorded an answer while this one waited on the rail.
      if (locked?.status !== 'NEW') throw new NothingToMove(locked)
      return endOrder(deps, money, locked, 'FAILED', answer.code, now)
    })
  }
  return deps.db.transaction().execute(async (trx) => {
    const locked = await repo.lockOrder(trx, row.tenant_id, row.id)
    if (!locked) return undefined
    if (locked.status !== 'NEW') {
      // Another run recorded an answer while this one waited on the rail
      // (its lease ran out): an acceptance is still kept, never dropped.
      await keepLateAnswer(trx, locked, rail, answer.reference, context.log)
      return locked
    }
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
    return moveOrder(trx, { ...locked, ...rails }, rail, 'PENDING', null, now)
  })
}

/**
 * The payout or broadcast, from the order's own snapshot of its payee —
 * never the destination as it is now, which may have been edited since.
 * Idempotent on the order id, so a repeat is the same payout.
 */
function railCall(
  deps: OrderDeps,
  row: OrderRow,
  rail: Rail,
  catalog: Catalog,
): (now: Date) => Promise<RailAnswer> {
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
    return (now): Promise<PayoutSubmission> => deps.rails.bank.submitPayout(request, now)
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
    const broadcast = await deps.rails.chain.broadcast(withdrawal, now)
    return broadcast.accepted ? { accepted: true, reference: broadcast.txHash } : broadcast
  }
}

/** PENDING → COMPLETE when the payout settled, FAILED when it came back; else ask again later. */
async function checkPayout(deps: OrderDeps, row: OrderRow, now: Date): Promise<JobResult> {
  if (!row.rail_reference || !row.submitted_at) {
    throw new Error(`order ${row.id} is pending without a payout`)
  }
  const state = await deps.rails.bank.payoutStatus(
    { reference: row.rail_reference, submittedAt: row.submitted_at },
    now,
  )
  if (state.state === 'pending') return { again: state.checkAgainAt }
  await orderCommand(deps, 'orders.payout_outcome', orderOf(row), async (money, locked) => {
    if (locked?.status !== 'PENDING') throw new NothingToMove(undefined)
    if (state.state === 'settled') await completeOrder(deps, money, locked, 'bank_out', now)
    else await endOrder(deps, money, locked, 'FAILED', state.code, now)
  })
  return undefined
}

/** One more block for a broadcast withdrawal; COMPLETE at the confirmations required. */
async function checkChain(deps: OrderDeps, row: OrderRow, now: Date): Promise<JobResult> {
  const chain = row.target.chain as ChainId
  if (!row.tx_hash || !row.submitted_at) throw new Error(`order ${row.id} is pending unbroadcast`)
  const progress = await deps.rails.chain.progress(
    { chain, txHash: row.tx_hash, broadcastAt: row.submitted_at },
    now,
  )
  const required = requiredConfirmations(
    await repo.chainConfirmations(deps.db, chain),
    deps.settings.maxConfirmations,
  )
  const confirmations = Math.min(progress.confirmations, required)
  const noted = { confirmations, updated_at: now }
  if (confirmations >= required) {
    // The last block: the progress and the settling entry, one money command.
    await orderCommand(deps, 'orders.complete', orderOf(row), async (money, locked) => {
      if (locked?.status !== 'PENDING') throw new NothingToMove(undefined)
      await repo.setChainProgress(money.trx, locked.tenant_id, locked.id, noted)
      await completeOrder(deps, money, locked, 'chain', now)
    })
    return undefined
  }
  const pending = await deps.db.transaction().execute(async (trx) => {
    const locked = await repo.lockOrder(trx, row.tenant_id, row.id)
    if (locked?.status !== 'PENDING') return false
    await repo.setChainProgress(trx, locked.tenant_id, locked.id, noted)
    return true
  })
  return pending ? { again: progress.checkAgainAt } : undefined
}

const orderOf = (row: OrderRow) => ({ tenantId: row.tenant_id, id: row.id })

/**
 * Whether the order needs a verified identity the person no longer has (403
 * KYC_REQUIRED from the gate), read FOR SHARE: a status change waits for
 * this transaction.
 */
async function kycRefused(trx: Trx, order: OrderRow): Promise<boolean> {
  if (!orderNeedsKyc(order.order_type)) return false
  return requireApprovedKyc(trx, order.tenant_id, order.user_id).then(
    () => false,
    (error: unknown) => {
      if (error instanceof KycRequiredError) return true
      throw error
    },
  )
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
