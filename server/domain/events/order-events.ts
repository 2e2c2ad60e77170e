import type { Transaction } from 'kysely'
import { fromMinor } from '../../../contract/money.ts'
import type { OrderStatus } from '../../../contract/orders.ts'
import type { DB } from '../../infra/db/schema.ts'
import type { OrderRow } from '../orders/repository.ts'
import { emitEvent } from '../outbox.ts'

/**
 * order.completed / order.failed, written in the transaction that moves the
 * order (orders' one status-change step): one call there, the payload here.
 * Other moves (PROCESSING, CANCELED, ERROR) tell nobody.
 */
export async function emitOrderEvent(trx: Transaction<DB>, order: OrderRow, to: OrderStatus) {
  if (to !== 'COMPLETE' && to !== 'FAILED') return
  const currencies = await trx
    .selectFrom('currencies')
    .select(['uuid', 'code', 'decimals'])
    .where('uuid', 'in', [order.from_currency_uuid, order.to_currency_uuid])
    .execute()
  const of = (uuid: string) => currencies.find((currency) => currency.uuid === uuid)
  const from = of(order.from_currency_uuid)
  const into = of(order.to_currency_uuid)
  // Who it went to or came from, as the payer's feed item names them (written before this move).
  const item = await trx
    .selectFrom('activities')
    .select(['counterparty_name', 'address', 'card_last4'])
    .where('source_type', '=', 'order')
    .where('source_id', '=', order.id)
    .where('user_id', '=', order.user_id)
    .executeTakeFirst()
  const paid = (minor: bigint) => fromMinor(minor, from?.decimals ?? 0)
  const payload = {
    order_id: order.id,
    wallet_id: order.wallet_id,
    type: order.order_type,
    from_amount: paid(BigInt(order.amount_from_minor)),
    from_currency: from?.code ?? '',
    to_amount: fromMinor(BigInt(order.amount_to_minor), into?.decimals ?? 0),
    to_currency: into?.code ?? '',
    fee_amount: paid(BigInt(order.total_minor) - BigInt(order.amount_from_minor)),
    total_amount: paid(BigInt(order.total_minor)),
    counterparty_name: item?.counterparty_name ?? null,
    address: item?.address ?? null,
    card_last4: item?.card_last4 ?? null,
  }
  // The move's time: moveOrder stamps it on the row it hands over.
  const owner = { tenantId: order.tenant_id, userId: order.user_id, at: order.updated_at }
  if (to === 'COMPLETE') await emitEvent(trx, { ...owner, kind: 'order.completed', payload })
  else {
    await emitEvent(trx, {
      ...owner,
      kind: 'order.failed',
      payload: { ...payload, reason: order.failure_code },
    })
  }
}
