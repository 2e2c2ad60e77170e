import type { Order, OrderList, OrderQuery } from '../../../contract/orders.ts'
import type { Owner } from '../owner.ts'
import { historyPage, rowsFor } from '../page.ts'
import { OrderError } from './errors.ts'
import type { OrderDeps } from './order-deps.ts'
import { renderOrder } from './render-order.ts'
import * as repo from './repository.ts'

/** @throws OrderError ORDER_NOT_FOUND, also for another person's order */
export async function getOrder(deps: OrderDeps, owner: Owner, id: string): Promise<Order> {
  const catalog = await deps.catalog()
  const row = await repo.findOrder(deps.db, owner.tenantId, id, owner.userId)
  if (!row) throw new OrderError({ kind: 'ORDER_NOT_FOUND' })
  return renderOrder(deps, deps.db, row, catalog)
}

/** The person's order placed under `requestId` (its idempotency key), if there is one. */
export async function findOrderByRequest(
  deps: OrderDeps,
  owner: Owner,
  requestId: string,
): Promise<Order | undefined> {
  const catalog = await deps.catalog()
  const row = await repo.findOrderByRequest(deps.db, owner, requestId)
  return row && renderOrder(deps, deps.db, row, catalog)
}

/** The person's orders, newest first. */
export async function listOrders(
  deps: OrderDeps,
  owner: Owner,
  query: OrderQuery,
): Promise<OrderList> {
  const filter = {
    walletId: query.wallet_uuid,
    orderType: query.order_type,
    status: query.status,
  }
  const page = { limit: query.limit, offset: query.offset, with_total: query.with_total }
  const catalog = await deps.catalog()
  const read = await repo.findOrders(deps.db, owner, filter, rowsFor(page))
  const listed = await historyPage(read, page, () => repo.countOrders(deps.db, owner, filter))
  const rows = listed.data
  const events = await repo.findEvents(
    deps.db,
    rows.map((row) => row.id),
  )
  // One read of the beneficiary's name for the page, not one per deposit; none without one.
  const beneficiary = rows.some((row) => row.deposit_reference !== null)
    ? await repo.tenantName(deps.db, owner.tenantId)
    : undefined
  const data: Order[] = []
  for (const row of rows) {
    const timeline = events.filter((event) => event.order_id === row.id)
    data.push(await renderOrder(deps, deps.db, row, catalog, { timeline, beneficiary }))
  }
  return { ...listed, data }
}
