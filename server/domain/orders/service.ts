import type { Kysely } from 'kysely'
import type { Order, OrderList, OrderQuery, SandboxBankTransfer } from '../../../contract/orders.ts'
import type { DB } from '../../infra/db/schema.ts'
import type { Job, JobContext, JobResult } from '../../infra/jobs.ts'
import type { Owner } from '../owner.ts'
import { type BankTransferRequest, receiveBankTransfer } from './bank-transfers.ts'
import { cancelOrder } from './cancel-order.ts'
import {
  catalogOnce,
  type OrderDeps,
  type OrderRails,
  type OrderSettings,
  tenantAccountsOnce,
  walletAccountsOnce,
} from './order-deps.ts'
import { processOrder } from './order-job.ts'
import { type PlaceRequest, placeOrder } from './place-order.ts'
import { findOrderByRequest, getOrder, listOrders } from './read-orders.ts'

export type { BankTransferRequest } from './bank-transfers.ts'
export type { OrderRails, OrderSettings } from './order-deps.ts'
export { ORDER_JOB } from './order-job.ts'
export type { PlaceRequest } from './place-order.ts'

/**
 * Orders, one use case per file: placing one (place-order.ts), reading
 * (read-orders.ts) and cancelling them (cancel-order.ts), the job that
 * carries them to their end (order-job.ts), and the sandbox bank's incoming
 * transfers that complete deposits (bank-transfers.ts); the moves they share
 * are in order-moves.ts.
 *
 * Every change of an order happens in a transaction that holds the order's
 * row lock and is gated on the status it leaves, and every ledger entry is
 * keyed by the order and its step (`order:<id>:hold|settle|release|received`):
 * a step repeated after a crash or by a second runner finds nothing to redo.
 */
export class OrderService {
  readonly #deps: OrderDeps

  constructor(db: Kysely<DB>, rails: OrderRails, settings: OrderSettings) {
    this.#deps = {
      db,
      rails,
      settings,
      catalog: catalogOnce(db),
      walletAccounts: walletAccountsOnce(),
      tenantAccounts: tenantAccountsOnce(db),
    }
  }

  place(owner: Owner, request: PlaceRequest, now = new Date()) {
    return placeOrder(this.#deps, owner, request, now)
  }

  get(owner: Owner, id: string): Promise<Order> {
    return getOrder(this.#deps, owner, id)
  }

  /** The order a key placed: what a caller that lost the answer finds it by. */
  findByRequest(owner: Owner, requestId: string): Promise<Order | undefined> {
    return findOrderByRequest(this.#deps, owner, requestId)
  }

  list(owner: Owner, query: OrderQuery): Promise<OrderList> {
    return listOrders(this.#deps, owner, query)
  }

  cancel(owner: Owner, id: string, now = new Date()): Promise<Order> {
    return cancelOrder(this.#deps, owner, id, now)
  }

  /** The job handler (ORDER_JOB). */
  readonly process = (job: Job, context: JobContext): Promise<JobResult> =>
    processOrder(this.#deps, job, context)

  receiveBankTransfer(
    request: BankTransferRequest,
    now = new Date(),
  ): Promise<SandboxBankTransfer> {
    return receiveBankTransfer(this.#deps, request, now)
  }
}
