import { v7 as uuidv7 } from 'uuid'
import type { OrderStatus } from '../../../contract/orders.ts'
import { recordDeposit } from '../card-transactions/account-deposits.ts'
import { type MoneyTransaction, runMoneyCommand } from '../ledger/money-command.ts'
import { systemAccounts } from '../ledger/service.ts'
import { releaseLegs, settleLegs } from './leg-rules.ts'
import type { OrderDeps, Trx } from './order-deps.ts'
import { tellOrder } from './order-events.ts'
import * as activity from './order-feed.ts'
import { type OrderFacts, recordPlan } from './record-rules.ts'
import type { OrderRow } from './repository.ts'
import * as repo from './repository.ts'
import { canMove, type Rail, railOf, recordStatus, releasesHold } from './rules.ts'
import { timelineEvent } from './timeline-rules.ts'

/**
 * The moves of an order after it was placed, each inside the caller's
 * transaction, which holds the order's row lock: completing (the settling
 * entry) and ending (the hold released), each inside the caller's money
 * command (ledger/money-command.ts) with its event, and the status change
 * itself with its records and its timeline. The job, a cancel and an
 * incoming bank transfer all move orders through these.
 */

/**
 * A move of an order that moves money, as one money command holding the
 * order's row lock (`locked`: undefined when there is no such order). A move
 * that finds the order gone on meanwhile throws NothingToMove with its answer.
 */
export async function orderCommand<A>(
  deps: Pick<OrderDeps, 'db'>,
  name: string,
  order: { tenantId: string; id: string },
  move: (money: MoneyTransaction, locked: OrderRow | undefined) => Promise<A>,
): Promise<A> {
  const { answer } = await runMoneyCommand(deps.db, {
    name,
    tenantId: order.tenantId,
    execute: async (money) =>
      move(money, await repo.lockOrder(money.trx, order.tenantId, order.id)),
  })
  return answer
}

/**
 * Settles a held order: one entry moves the amount to where it goes (the
 * outside world, a wallet, a fiat account; a conversion through the
 * treasury) and the fees to the fees account. A fiat account that stopped
 * taking top-ups fails the order instead.
 */
export async function completeOrder(
  deps: Pick<OrderDeps, 'walletAccounts'>,
  money: MoneyTransaction,
  row: OrderRow,
  rail: Rail,
  now: Date,
): Promise<OrderRow> {
  const { trx } = money
  const tenantId = row.tenant_id
  const held = await deps.walletAccounts(trx, tenantId, row.wallet_id)
  if (!held) throw new Error(`wallet ${row.wallet_id} has no ledger accounts`)
  const conversion = row.from_currency_uuid !== row.to_currency_uuid
  const system = await systemAccounts(
    trx,
    tenantId,
    rail === 'bank_out' || rail === 'chain'
      ? ['fees', 'external']
      : conversion
        ? ['fees', 'treasury']
        : ['fees'],
  )
  let destination: string
  /** A top-up's fiat account: its DEPOSIT card transaction goes with the entry. */
  let topUp: string | undefined
  switch (rail) {
    case 'bank_out':
    case 'chain':
      destination = system.external!
      break
    case 'wallet':
    case 'exchange': {
      const walletId = targetWallet(row)
      const target =
        walletId === row.wallet_id ? held : await deps.walletAccounts(trx, tenantId, walletId)
      if (!target) throw new Error(`order ${row.id}: target wallet ${walletId} not found`)
      destination = target.user_wallet
      break
    }
    case 'fiat_account': {
      const accountId = row.fiat_account_id ?? row.target.fiat_account_id
      const account = accountId ? await repo.findFiatAccount(trx, tenantId, accountId) : undefined
      if (account?.status !== 'ACTIVE') {
        return endOrder(deps, money, row, 'FAILED', 'FIAT_ACCOUNT_INACTIVE', now)
      }
      destination = account.ledger_account_id
      topUp = account.id
      break
    }
    case 'bank_in':
      throw new Error('a deposit completes by its transfer')
  }
  const items = await activity.orderCompleted(trx, row, now)
  if (topUp) {
    await recordDeposit(trx, {
      fiatAccountId: topUp,
      operationId: row.id,
      amountMinor: BigInt(conversion ? row.amount_to_minor : row.amount_from_minor),
      activityId: items.source,
      at: now,
    })
  }
  const completed = await moveOrder(trx, row, rail, 'COMPLETE', null, now)
  await repo.insertRecords(trx, orderRecords(row, 'completed', 'complete', now, items))
  await tellOrder(money, completed, 'COMPLETE')
  // Last: the balance rows (the tenant's fees and treasury among them) stay
  // locked from here to the commit.
  await money.post({
    kind: 'order_settle',
    idempotencyKey: `order:${row.id}:settle`,
    postings: settleLegs(
      { held: held.held, fees: system.fees, destination, treasury: system.treasury },
      row.from_currency_uuid,
      row.to_currency_uuid,
      factsOf(row),
    ),
  })
  return completed
}

/**
 * Ends an order that did not complete — FAILED, ERROR or CANCELED — giving
 * the held total back in the same money command, and telling the person.
 */
export async function endOrder(
  deps: Pick<OrderDeps, 'walletAccounts'>,
  money: MoneyTransaction,
  row: OrderRow,
  to: 'FAILED' | 'ERROR' | 'CANCELED',
  failureCode: string | null,
  now: Date,
): Promise<OrderRow> {
  const rail = railOf(row.order_type, row.target)
  assertMove(row, rail, to)
  const accounts = releasesHold(rail, to)
    ? await deps.walletAccounts(money.trx, row.tenant_id, row.wallet_id)
    : undefined
  const ended = await moveOrder(money.trx, row, rail, to, failureCode, now)
  await tellOrder(money, ended, to)
  if (releasesHold(rail, to)) {
    if (!accounts) throw new Error(`wallet ${row.wallet_id} has no ledger accounts`)
    // Last: the balance rows stay locked from here to the commit.
    await money.post({
      kind: 'order_release',
      idempotencyKey: `order:${row.id}:release`,
      postings: releaseLegs(accounts, row.from_currency_uuid, BigInt(row.total_minor)),
    })
  }
  return ended
}

/**
 * The status change itself: the order, its records, its timeline (one
 * statement), and its activity items following it. What it tells is the
 * caller's (tellOrder): only a move that moves money tells anyone.
 */
export async function moveOrder(
  trx: Trx,
  row: OrderRow,
  rail: Rail,
  to: OrderStatus,
  failureCode: string | null,
  now: Date,
): Promise<OrderRow> {
  assertMove(row, rail, to)
  const moved = {
    ...row,
    status: to,
    updated_at: now,
    failure_code: failureCode ?? row.failure_code,
  }
  await repo.moveOrder(trx, {
    orderId: row.id,
    tenantId: row.tenant_id,
    status: to,
    failureCode,
    recordStatus: recordStatus(to),
    ...timelineEvent(rail, to, {
      reference: row.deposit_reference,
      failureCode,
    }),
    at: now,
  })
  await activity.orderMoved(trx, moved, now)
  return moved
}

/** The wallet transaction records of the order written at `when`. */
export function orderRecords(
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

export function assertMove(row: OrderRow, rail: Rail, to: OrderStatus) {
  if (!canMove(rail, row.status, to, row.submitted_at !== null)) {
    throw new Error(`order ${row.id} cannot move from ${row.status} to ${to}`)
  }
}

export function factsOf(row: OrderRow): OrderFacts {
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
export const targetWallet = (row: OrderRow) => row.target.wallet_uuid ?? row.wallet_id
