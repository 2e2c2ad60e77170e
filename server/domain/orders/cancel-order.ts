import type { Order } from '../../../contract/orders.ts'
import type { Owner } from '../owner.ts'
import { findBankTransfer } from './bank-transfer-repository.ts'
import { OrderError } from './errors.ts'
import type { OrderDeps } from './order-deps.ts'
import { endOrder, orderCommand } from './order-moves.ts'
import { renderOrder } from './render-order.ts'
import { isCancelable, railOf } from './rules.ts'

/**
 * Cancels an order the rail does not have yet (NEW, not handed off), or a
 * deposit still awaiting its transfer; the held total comes back at once,
 * and order.canceled tells it (one money command).
 * @throws OrderError ORDER_NOT_FOUND, ORDER_NOT_CANCELABLE
 */
export async function cancelOrder(
  deps: OrderDeps,
  owner: Owner,
  id: string,
  now = new Date(),
): Promise<Order> {
  const catalog = await deps.catalog()
  return orderCommand(
    deps,
    'orders.cancel',
    { tenantId: owner.tenantId, id },
    async (money, row) => {
      const { trx } = money
      if (!row || row.user_id !== owner.userId) throw new OrderError({ kind: 'ORDER_NOT_FOUND' })
      const rail = railOf(row.order_type, row.target)
      const transferReceived =
        rail === 'bank_in' && (await findBankTransfer(trx, row.id)) !== undefined
      const cancelable = isCancelable({
        rail,
        status: row.status,
        handedOff: row.submitted_at !== null,
        transferReceived,
      })
      if (!cancelable) throw new OrderError({ kind: 'ORDER_NOT_CANCELABLE', status: row.status })
      const canceled = await endOrder(deps, money, row, 'CANCELED', null, now)
      return renderOrder(deps, trx, canceled, catalog)
    },
  )
}
