import type { Kysely, Transaction } from 'kysely'
import type { AutoTopUpFailure } from '../../../contract/auto-top-up.ts'
import { fromMinor } from '../../../contract/money.ts'
import type { Order } from '../../../contract/orders.ts'
import type { DB } from '../../infra/db/schema.ts'
import { enqueue, type Job, type JobContext, type JobResult } from '../../infra/jobs.ts'
import { assertNever } from '../../infra/problem.ts'
import { RatesUnavailableError } from '../../providers/rates/rates.ts'
import type { AccountCleared } from '../card-transactions/clear-reverse-refund.ts'
import { dayStart } from '../card-transactions/rules.ts'
import { findFiatAccount } from '../fiat-accounts/repository.ts'
import { KycRequiredError } from '../kyc/errors.ts'
import { balanceOf } from '../ledger/service.ts'
import { OrderError, QuoteError } from '../orders/errors.ts'
import type { QuoteService } from '../orders/quotes.ts'
import type { OrderService } from '../orders/service.ts'
import { emitEvent } from '../outbox.ts'
import type { Owner } from '../owner.ts'
import { WalletError } from '../wallets/errors.ts'
import * as repo from './repository.ts'
import { topUpDecision, topUpOrderType } from './rules.ts'

/** One clearing's auto top-up: payload `{ clearing_id }`, due at once. */
export const AUTO_TOP_UP_JOB = 'cards.auto_top_up'

/**
 * The card network's `afterClearing` (card-transactions/clear-reverse-refund.ts; handed in
 * by the composition root, services.ts), in the clearing's own transaction: when the
 * clearing left an account whose auto top-up is on below `below`, the
 * clearing's run is opened and its job enqueued, both with the clearing. The
 * run's key is the clearing, so the job exists once per clearing however the
 * message is repeated.
 */
export async function topUpAfterClearing(
  trx: Transaction<DB>,
  clearing: AccountCleared,
): Promise<void> {
  const settings = await repo.findSettings(trx, clearing.fiatAccountId)
  if (!settings?.enabled || settings.below_minor === null) return
  const balance = await balanceOf(trx, clearing.ledgerAccountId, clearing.currencyUuid)
  if (balance >= BigInt(settings.below_minor)) return
  const opened = await repo.openRun(trx, {
    clearingId: clearing.id,
    tenantId: clearing.tenantId,
    userId: settings.user_id,
    fiatAccountId: clearing.fiatAccountId,
    at: clearing.at,
  })
  if (!opened) return
  await enqueue(trx, {
    kind: AUTO_TOP_UP_JOB,
    tenantId: clearing.tenantId,
    payload: { clearing_id: clearing.id },
  })
}

export interface AutoTopUpDeps {
  db: Kysely<DB>
  quotes: QuoteService
  orders: OrderService
}

type Outcome =
  | { status: 'PLACED'; order: Order }
  | { status: 'FAILED'; failure: AutoTopUpFailure; amountMinor: bigint }

/**
 * AUTO_TOP_UP_JOB, after schedules' runs (run-schedule.ts): exactly once
 * however many runners see the job, and never retried once it has an outcome.
 *
 * 1. Under the account's settings row lock (the runs of one account one at a
 *    time), a PENDING run's amount is decided — back to `top_up_to`, less
 *    what earlier top-ups still bring, within what is left of the UTC day's
 *    cap — and written on the run, which counts against the cap from then on.
 *    Turned off, or back at `top_up_to` meanwhile: the run is dropped.
 * 2. The order, outside any transaction, on a firm quote taken now for the
 *    amount to arrive, under the run's key (`auto-top-up:<clearing>`): placed
 *    twice, it answers the first.
 * 3. The run ends (only from PENDING) with one event: placed, or failed with
 *    why. A refusal is the run's outcome, not an error: the job completes.
 */
export async function runAutoTopUp(
  deps: AutoTopUpDeps,
  job: Job,
  context: JobContext,
): Promise<JobResult> {
  const clearingId = String(job.payload.clearing_id)
  const now = context.now
  const decided = await deps.db.transaction().execute(async (trx) => {
    const run = await repo.findRun(trx, clearingId)
    if (run?.status !== 'PENDING') return undefined
    const settings = await repo.findSettings(trx, run.fiat_account_id, { lock: true })
    const owner = { tenantId: run.tenant_id, userId: run.user_id }
    if (
      !settings?.enabled ||
      settings.from_wallet_id === null ||
      settings.from_currency_uuid === null
    ) {
      await repo.dropRun(trx, clearingId)
      return undefined
    }
    const account = await findFiatAccount(trx, owner, { id: run.fiat_account_id })
    if (!account)
      throw new Error(`fiat account ${run.fiat_account_id} of run ${clearingId} vanished`)
    const plan = {
      run,
      owner,
      account,
      fromWalletId: settings.from_wallet_id,
      fromCurrencyUuid: settings.from_currency_uuid,
    }
    // Decided before a crash: the same amount, under the same key.
    if (run.amount_minor !== null) {
      return { ...plan, amountMinor: BigInt(run.amount_minor), capReached: false }
    }
    const decision = topUpDecision({
      balanceMinor: await balanceOf(trx, account.ledger_account_id, account.currency_uuid),
      onTheWayMinor: await repo.onTheWay(trx, run.fiat_account_id, clearingId),
      topUpToMinor: BigInt(settings.top_up_to_minor ?? '0'),
      dailyCapMinor: BigInt(settings.daily_cap_minor ?? '0'),
      usedTodayMinor: await repo.usedSince(trx, run.fiat_account_id, dayStart(now), clearingId),
    })
    switch (decision.kind) {
      case 'NOTHING_TO_DO':
        await repo.dropRun(trx, clearingId)
        return undefined
      case 'CAP_REACHED':
        return { ...plan, amountMinor: 0n, capReached: true }
      case 'TOP_UP':
        await repo.setRunAmount(trx, clearingId, decision.amountMinor, now)
        return { ...plan, amountMinor: decision.amountMinor, capReached: false }
      default:
        return assertNever(decision)
    }
  })
  if (!decided) return undefined

  const outcome: Outcome = decided.capReached
    ? { status: 'FAILED', failure: 'DAILY_CAP_REACHED', amountMinor: 0n }
    : await place(deps, decided)

  await deps.db.transaction().execute(async (trx) => {
    const { account, owner } = decided
    const amountMinor = outcome.status === 'PLACED' ? decided.amountMinor : outcome.amountMinor
    const ended = await repo.endRun(trx, clearingId, {
      status: outcome.status,
      amountMinor,
      orderId: outcome.status === 'PLACED' ? outcome.order.id : null,
      failure: outcome.status === 'FAILED' ? outcome.failure : null,
      at: now,
    })
    if (!ended) return
    const amount = fromMinor(amountMinor, account.decimals)
    if (outcome.status === 'PLACED') {
      await emitEvent(trx, {
        tenantId: owner.tenantId,
        userId: owner.userId,
        kind: 'card.auto_top_up.placed',
        payload: {
          fiat_account_id: account.id,
          order_id: outcome.order.id,
          amount,
          currency: account.currency,
          from_amount: outcome.order.total,
          from_currency: outcome.order.from.currency,
        },
      })
      return
    }
    await emitEvent(trx, {
      tenantId: owner.tenantId,
      userId: owner.userId,
      kind: 'card.auto_top_up.failed',
      payload: {
        fiat_account_id: account.id,
        reason: outcome.failure,
        amount,
        currency: account.currency,
      },
    })
  })
  return undefined
}

/** The top-up's order: a firm quote taken now for the amount to arrive, placed under the run's key. */
async function place(
  deps: AutoTopUpDeps,
  plan: {
    run: repo.RunRow
    owner: Owner
    account: { id: string; currency_uuid: string; decimals: number }
    fromWalletId: string
    fromCurrencyUuid: string
    amountMinor: bigint
  },
): Promise<Outcome> {
  const key = `auto-top-up:${plan.run.clearing_id}`
  const failed = (failure: AutoTopUpFailure): Outcome => ({
    status: 'FAILED',
    failure,
    amountMinor: plan.amountMinor,
  })
  // Placed before a crash: the order is this run's (its key is the run's).
  const placed = await deps.orders.findByRequest(plan.owner, key)
  if (placed) return { status: 'PLACED', order: placed }
  try {
    const quote = await deps.quotes.create(plan.owner, {
      order_type: topUpOrderType(plan.fromCurrencyUuid, plan.account.currency_uuid),
      wallet_uuid: plan.fromWalletId,
      from_uuid: plan.fromCurrencyUuid,
      fiat_account_id: plan.account.id,
      amount_to: fromMinor(plan.amountMinor, plan.account.decimals),
    })
    const { order } = await deps.orders.place(plan.owner, {
      orderType: quote.order_type,
      quoteId: quote.quote_id,
      requestId: key,
    })
    return { status: 'PLACED', order }
  } catch (error) {
    // Another runner placed it with its own quote meanwhile: the order is this run's all the same.
    if (error instanceof OrderError && error.failure.kind === 'IDEMPOTENCY_CONFLICT') {
      const again = await deps.orders.findByRequest(plan.owner, key)
      if (again) return { status: 'PLACED', order: again }
    }
    const failure = failureOf(error)
    if (failure) return failed(failure)
    // Anything else (the database) is retried with the amount already decided.
    throw error
  }
}

/** Why a refused order did not top up; undefined for what is no refusal (retried). */
export function failureOf(error: unknown): AutoTopUpFailure | undefined {
  if (error instanceof RatesUnavailableError) return 'RATES_UNAVAILABLE'
  if (error instanceof KycRequiredError) return 'KYC_REQUIRED'
  if (error instanceof WalletError) return 'ACCOUNT_UNAVAILABLE'
  if (error instanceof QuoteError) {
    const kind = error.failure.kind
    return kind.startsWith('FIAT_ACCOUNT_') ? 'ACCOUNT_UNAVAILABLE' : 'QUOTE_REFUSED'
  }
  if (error instanceof OrderError) {
    const kind = error.failure.kind
    if (kind === 'INSUFFICIENT_FUNDS') return 'INSUFFICIENT_FUNDS'
    if (kind === 'FIAT_ACCOUNT_UNAVAILABLE') return 'ACCOUNT_UNAVAILABLE'
    return 'QUOTE_REFUSED'
  }
  return undefined
}
