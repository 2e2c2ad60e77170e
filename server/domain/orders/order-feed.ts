/**
 * An order's items in the feed, written in the transactions that place,
 * move and complete it: the payer's item from the start, the payee's when
 * money reaches another person's wallet. Found again by the order, so a step
 * repeated after a crash changes nothing twice.
 */
import type { Kysely } from 'kysely'
import { v7 as uuidv7 } from 'uuid'
import type { DB } from '../../infra/db/schema.ts'
import { orderActivityStatus, timelineStep } from '../feed/rules.ts'
import type { NewActivity } from '../feed/store.ts'
import * as feed from '../feed/store.ts'
import { orderShape } from './feed-rules.ts'
import type { Trx } from './order-deps.ts'
import type { OrderRow } from './repository.ts'
import { railOf } from './rules.ts'

type Executor = Kysely<DB> | Trx
type Order = Pick<
  OrderRow,
  | 'id'
  | 'tenant_id'
  | 'user_id'
  | 'wallet_id'
  | 'order_type'
  | 'status'
  | 'from_currency_uuid'
  | 'to_currency_uuid'
  | 'amount_from_minor'
  | 'amount_to_minor'
  | 'rate'
  | 'fees'
  | 'target'
  | 'payee'
  | 'fiat_account_id'
  | 'deposit_reference'
  | 'tx_hash'
  | 'note'
  | 'failure_code'
  | 'created_at'
>

/** The items an order's records belong to: the payer's (`source`) and, where money lands, `target`'s. */
export interface OrderActivities {
  source: string
  target: string
}

const orderRef = (order: Pick<Order, 'tenant_id' | 'id'>) =>
  ({ tenant_id: order.tenant_id, source_type: 'order', source_id: order.id }) as const

/** Where an exchange's proceeds or an internal transfer land (an exchange defaults to its own wallet). */
const landsIn = (order: Order) => order.target.wallet_uuid ?? order.wallet_id

/**
 * The payer's item, written with the order: a deposit, a send, a transfer
 * between their own wallets, an exchange or a card top-up. Built before the
 * placing transaction from what does not change under it (who holds the
 * target wallet, the counterparty's name, the stand-alone card a top-up is
 * for), and inserted with the order in
 * one statement (repository.ts insertPlacedOrder).
 */
export async function orderPlacedItem(
  db: Executor,
  order: Order,
  at: Date,
): Promise<NewActivity & { id: string }> {
  const rail = railOf(order.order_type, order.target)
  const lands = landsIn(order)
  const ownTarget =
    rail !== 'wallet' ||
    (await feed.walletHolder(db, order.tenant_id, lands))?.user_id === order.user_id
  const shape = orderShape(
    rail,
    {
      amountFrom: BigInt(order.amount_from_minor),
      amountTo: BigInt(order.amount_to_minor),
      fees: order.fees,
    },
    ownTarget,
  )
  const converts = order.from_currency_uuid !== order.to_currency_uuid
  const { payee, target } = order
  const fiatAccountId = order.fiat_account_id ?? target.fiat_account_id
  const card = fiatAccountId
    ? await feed.standAloneCard(db, order.tenant_id, fiatAccountId)
    : undefined
  const counterparty =
    payee?.kind === 'bank_account'
      ? payee.beneficiary
      : target.counterparty_account_id
        ? await feed.counterpartyName(db, order.tenant_id, target.counterparty_account_id)
        : null
  return {
    id: uuidv7(),
    tenant_id: order.tenant_id,
    user_id: order.user_id,
    type: shape.type,
    status: orderActivityStatus(order.status),
    direction: shape.direction,
    source_type: 'order',
    source_id: order.id,
    order_type: order.order_type,
    wallet_id: order.wallet_id,
    counter_wallet_id: shape.direction === 'own' && lands !== order.wallet_id ? lands : null,
    fiat_account_id: fiatAccountId,
    card_id: card?.id ?? null,
    card_last4: card?.last4 ?? null,
    currency_uuid: shape.type === 'deposit' ? order.to_currency_uuid : order.from_currency_uuid,
    amount_minor: shape.amount.toString(),
    fee_minor: shape.fee.toString(),
    received_currency_uuid: shape.received === null ? null : order.to_currency_uuid,
    received_minor: shape.received?.toString() ?? null,
    rate: converts ? order.rate : null,
    counterparty_name: counterparty,
    address: payee?.kind === 'bank_account' ? payee.iban : target.address,
    reference: order.deposit_reference,
    tx_hash: order.tx_hash,
    note: order.note,
    failure_code: order.failure_code,
    created_at: order.created_at,
    updated_at: at,
  }
}

/** The order moved (its status, a failure, a broadcast's hash): every item of it follows. */
export async function orderMoved(trx: Trx, order: Order, at: Date): Promise<void> {
  await feed.updateBySource(trx, orderRef(order), {
    status: orderActivityStatus(order.status),
    ...(order.failure_code !== null && { failure_code: order.failure_code }),
    ...(order.tx_hash !== null && { tx_hash: order.tx_hash }),
    updated_at: at,
  })
}

/**
 * The order completed: money that reached another person's wallet is their
 * `receive` item, written now (it shows there only once it has arrived, like
 * their record). Answers the items the completion's records belong to.
 */
export async function orderCompleted(trx: Trx, order: Order, at: Date): Promise<OrderActivities> {
  const payer = await feed.findBySource(trx, { ...orderRef(order), user_id: order.user_id })
  if (!payer) throw new Error(`order ${order.id} has no activity`)
  if (railOf(order.order_type, order.target) !== 'wallet') {
    return { source: payer.id, target: payer.id }
  }
  const holder = await feed.walletHolder(trx, order.tenant_id, landsIn(order))
  if (!holder || holder.user_id === order.user_id) return { source: payer.id, target: payer.id }
  const received = await feed.insertActivity(trx, {
    id: uuidv7(),
    tenant_id: order.tenant_id,
    user_id: holder.user_id,
    type: 'receive',
    status: 'complete',
    direction: 'in',
    source_type: 'order',
    source_id: order.id,
    order_type: order.order_type,
    wallet_id: holder.id,
    currency_uuid: order.to_currency_uuid,
    amount_minor: order.amount_to_minor,
    counterparty_name: await feed.personName(trx, order.user_id),
    // The payer's note reaches the payee, as a bank payout's reference reaches their statement.
    note: order.note,
    timeline: JSON.stringify([timelineStep('complete', 'DELIVERED_TO_WALLET', at)]),
    created_at: at,
    updated_at: at,
  })
  return { source: payer.id, target: received }
}

/** A bank deposit's transfer arrived: who sent it, from which account. */
export async function depositSender(
  trx: Trx,
  order: Order,
  sender: { name: string | null; iban: string | null },
): Promise<void> {
  if (sender.name === null && sender.iban === null) return
  await feed.updateBySource(trx, orderRef(order), {
    ...(sender.name !== null && { counterparty_name: sender.name }),
    ...(sender.iban !== null && { address: sender.iban }),
  })
}
