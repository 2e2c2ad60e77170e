import type { FastifyBaseLogger } from 'fastify'
import type { Kysely } from 'kysely'
import type { ChainId } from '../../../contract/catalog.ts'
import type { Order, OrderType, QuoteQuery } from '../../../contract/orders.ts'
import type { DB } from '../../infra/db/schema.ts'
import type { Job, JobContext, JobResult } from '../../infra/jobs.ts'
import { DEPOSIT_JOB, type DepositService } from '../deposits/service.ts'
import { bookedAt } from '../ledger/booking-time.ts'
import { ORDER_JOB } from '../orders/order-job.ts'
import type { QuoteService } from '../orders/quotes.ts'
import type { OrderService } from '../orders/service.ts'
import type { Owner } from '../owner.ts'

/*
 * How the demo's money moves: orders quoted, placed and carried to their end,
 * and crypto deposits seen and confirmed — through the services the routes
 * and the job runner use, at the step's time rather than the clock's.
 */

export interface DemoMoney {
  db: Kysely<DB>
  log: FastifyBaseLogger
  orders: OrderService
  quotes: QuoteService
  deposits: DepositService
}

/** The idempotency key of a demo step's order, card or card message (each scoped to its owner). */
export const demoKey = (key: string) => `demo-seed:${key}`

/**
 * An outside party's id of a demo transfer (a deposit's hash, a SEPA credit's
 * end-to-end id): unique beyond one person, so it names the demo user too.
 */
export const transferId = (owner: Owner, key: string) => `demo-seed:${owner.userId}:${key}`

/** Runs of one job before the demo gives up on it (a job that never ends is a bug). */
const MAX_RUNS = 100

/**
 * A job's runs one after another, each at the time the previous one asked
 * to be run again (never before `at`): the hours a real runner would wait
 * pass at once, and each step is stamped with the time it would have had.
 */
async function runToTheEnd(
  handler: (job: Job, context: JobContext) => Promise<JobResult>,
  job: Omit<Job, 'attempt'>,
  money: DemoMoney,
  at: Date,
): Promise<void> {
  let now = at
  for (let run = 1; run <= MAX_RUNS; run++) {
    const at = now
    const result = await bookedAt(at, () =>
      handler({ ...job, attempt: 1 }, { db: money.db, log: money.log, now: at }),
    )
    if (!result) return
    now = new Date(Math.max(now.getTime(), result.again.getTime()))
  }
  throw new Error(`the demo's ${job.kind} job ${JSON.stringify(job.payload)} did not end`)
}

/**
 * The order a step placed, quoted and placed at `at` if it was not yet, then
 * carried as far as its rail takes it without anyone else (a deposit waits
 * for its transfer). Found by its key on a second run, and carried on from
 * where a run that died left it.
 */
export async function placeDemoOrder(
  money: DemoMoney,
  owner: Owner,
  order: { key: string; query: QuoteQuery & { order_type: OrderType }; note?: string },
  at: Date,
): Promise<Order> {
  const requestId = demoKey(order.key)
  let placed = await money.orders.findByRequest(owner, requestId)
  if (!placed) {
    const quote = await money.quotes.create(owner, order.query, at)
    const request = {
      orderType: order.query.order_type,
      quoteId: quote.quote_id,
      requestId,
      ...(order.note !== undefined && { note: order.note }),
    }
    placed = (await money.orders.place(owner, request, at)).order
  }
  const job = {
    id: `demo:order:${placed.id}`,
    kind: ORDER_JOB,
    tenantId: owner.tenantId,
    payload: { order_id: placed.id },
  }
  await runToTheEnd(money.orders.process, job, money, at)
  return (await money.orders.findByRequest(owner, requestId)) ?? placed
}

/**
 * A crypto deposit arriving at the wallet's newest address at `at`, then
 * block by block until confirmed, as the sandbox chain's job walks it.
 */
export async function receiveDemoDeposit(
  money: DemoMoney,
  owner: Owner,
  deposit: { key: string; walletId: string; chain: ChainId; currencyUuid: string; amount: string },
  at: Date,
): Promise<void> {
  const record = await money.deposits.create(
    {
      tenantId: owner.tenantId,
      walletId: deposit.walletId,
      chain: deposit.chain,
      currency: deposit.currencyUuid,
      amount: deposit.amount,
      idempotencyKey: transferId(owner, deposit.key),
    },
    at,
  )
  const job = {
    id: `demo:deposit:${record.uuid}`,
    kind: DEPOSIT_JOB,
    tenantId: owner.tenantId,
    payload: { transaction_id: record.uuid },
  }
  await runToTheEnd(money.deposits.step, job, money, at)
}
