import { fromMinor } from '../../../contract/money.ts'
import { assertNever } from '../../infra/problem.ts'
import type { MoneyTransaction } from '../ledger/money-command.ts'
import type { Trx } from './order-deps.ts'
import type { OrderRow } from './repository.ts'

/**
 * What an order's events tell, built here by the orders area that produces
 * them (issue 28: producers build their payloads) and written by the money
 * command that moves the order: order.created when it is placed
 * (placedEvent), and one event per end — order.completed, order.failed (FAILED, or ERROR when
 * processing gave up: either way the person's money is back and they must
 * hear it), order.canceled. Other moves (PROCESSING, PENDING) move no money
 * and tell nobody.
 */
export type OrderTold = 'COMPLETE' | 'FAILED' | 'ERROR' | 'CANCELED'

/** Whom the order was for, as the payer's feed item names them. */
type Party = {
  counterparty_name?: string | null
  address?: string | null
  card_last4?: string | null
}
type Currency = { uuid: string; code: string; decimals: number }

/**
 * order.created, built before the placing transaction from what placing
 * already read (the catalogue, the feed item it writes): the placement's
 * statements are its budget (order-statements.test.ts).
 */
export function placedEvent(order: OrderRow, currencies: readonly Currency[], item: Party) {
  return {
    userId: order.user_id,
    at: order.created_at,
    kind: 'order.created' as const,
    payload: {
      ...outcome(order, currencies, item),
      status: order.status === 'PENDING' ? ('PENDING' as const) : ('NEW' as const),
      deposit_reference: order.deposit_reference,
    },
  }
}

/**
 * order.completed, built before the transaction of an order that completes
 * in its placement (an internal exchange), from what placing already read:
 * the same event the settling job tells (tellOrder).
 */
export function completedEvent(order: OrderRow, currencies: readonly Currency[], item: Party) {
  return completed(order, outcome(order, currencies, item))
}

const completed = (order: OrderRow, payload: ReturnType<typeof outcome>) => ({
  // The move's time: moveOrder stamps it on the row it hands over.
  userId: order.user_id,
  at: order.updated_at,
  kind: 'order.completed' as const,
  payload,
})

/** Tells an order's end, in the money command that moves it there. */
export async function tellOrder(money: MoneyTransaction, order: OrderRow, told: OrderTold) {
  const payload = await outcomeOf(money.trx, order)
  const about = { userId: order.user_id, at: order.updated_at }
  switch (told) {
    case 'COMPLETE':
      await money.emit(completed(order, payload))
      return
    case 'FAILED':
    case 'ERROR':
      await money.emit({
        ...about,
        kind: 'order.failed',
        payload: { ...payload, reason: order.failure_code },
      })
      return
    case 'CANCELED':
      await money.emit({ ...about, kind: 'order.canceled', payload })
      return
    default:
      assertNever(told)
  }
}

/** The order as every order event tells it, read in the move's transaction. */
async function outcomeOf(trx: Trx, order: OrderRow) {
  const currencies = await trx
    .selectFrom('currencies')
    .select(['uuid', 'code', 'decimals'])
    .where('uuid', 'in', [order.from_currency_uuid, order.to_currency_uuid])
    .execute()
  // Who it went to or came from, as the payer's feed item names them (written before this move).
  const item = await trx
    .selectFrom('activities')
    .select(['counterparty_name', 'address', 'card_last4'])
    .where('source_type', '=', 'order')
    .where('source_id', '=', order.id)
    .where('user_id', '=', order.user_id)
    .executeTakeFirst()
  return outcome(order, currencies, item ?? {})
}

/** The order as every order event tells it, naming whom it was for as the payer's feed item does. */
function outcome(order: OrderRow, currencies: readonly Currency[], item: Party) {
  const of = (uuid: string) => currencies.find((currency) => currency.uuid === uuid)
  const from = of(order.from_currency_uuid)
  const into = of(order.to_currency_uuid)
  const paid = (minor: bigint) => fromMinor(minor, from?.decimals ?? 0)
  return {
    order_id: order.id,
    wallet_id: order.wallet_id,
    type: order.order_type,
    from_amount: paid(BigInt(order.amount_from_minor)),
    from_currency: from?.code ?? '',
    to_amount: fromMinor(BigInt(order.amount_to_minor), into?.decimals ?? 0),
    to_currency: into?.code ?? '',
    fee_amount: paid(BigInt(order.total_minor) - BigInt(order.amount_from_minor)),
    total_amount: paid(BigInt(order.total_minor)),
    counterparty_name: item.counterparty_name ?? null,
    address: item.address ?? null,
    card_last4: item.card_last4 ?? null,
  }
}
