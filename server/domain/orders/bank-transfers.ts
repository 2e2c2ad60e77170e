import type { Kysely } from 'kysely'
import { v7 as uuidv7 } from 'uuid'
import { AmountError, fromMinor, toMinor } from '../../../contract/money.ts'
import type { SandboxBankTransfer } from '../../../contract/orders.ts'
import type { DB } from '../../infra/db/schema.ts'
import { runMoneyCommand } from '../ledger/money-command.ts'
import { systemAccount, walletAccounts } from '../ledger/service.ts'
import { findBankTransfer, insertBankTransfer } from './bank-transfer-repository.ts'
import { OrderError } from './errors.ts'
import { receiveLegs } from './leg-rules.ts'
import type { OrderDeps } from './order-deps.ts'
import { tellOrder } from './order-events.ts'
import * as activity from './order-feed.ts'
import { factsOf, moveOrder } from './order-moves.ts'
import { normalizeReference } from './reference-rules.ts'
import * as repo from './repository.ts'

export interface BankTransferRequest {
  /** X-Tenant-Id when sent: the order must be the tenant's. */
  tenantId?: string
  reference: string
  amount: string
  currency: string
  senderName?: string
  senderIban?: string
}

/**
 * A transfer reached the platform's bank account: the deposit order its
 * reference names completes — the money (less the fees) in the wallet —
 * in the same money command that records the transfer (order.completed).
 * @throws OrderError REFERENCE_UNKNOWN, AMOUNT_MISMATCH, TRANSFER_ALREADY_RECEIVED,
 *   ORDER_NOT_AWAITING_TRANSFER
 */
export async function receiveBankTransfer(
  deps: OrderDeps,
  request: BankTransferRequest,
  now = new Date(),
): Promise<SandboxBankTransfer> {
  const reference = normalizeReference(request.reference)
  if (!reference) throw new OrderError({ kind: 'REFERENCE_UNKNOWN' })
  const catalog = await deps.catalog()
  // The command's tenant is the order's (the bank names no tenant); the lock is taken in it.
  const tenantId = await tenantOf(deps.db, reference)
  if (!tenantId) throw new OrderError({ kind: 'REFERENCE_UNKNOWN' })
  const { answer } = await runMoneyCommand(deps.db, {
    name: 'orders.bank_transfer',
    tenantId,
    execute: async (money) => {
      const { trx } = money
      const row = await repo.lockOrderByReference(trx, reference)
      if (!row || (request.tenantId && row.tenant_id !== request.tenantId)) {
        throw new OrderError({ kind: 'REFERENCE_UNKNOWN' })
      }
      if (await findBankTransfer(trx, row.id)) {
        throw new OrderError({ kind: 'TRANSFER_ALREADY_RECEIVED' })
      }
      if (row.status !== 'PENDING') {
        throw new OrderError({ kind: 'ORDER_NOT_AWAITING_TRANSFER', status: row.status })
      }
      const currency = catalog.get(row.from_currency_uuid)!
      if (request.currency.trim().toUpperCase() !== currency.code) {
        throw new OrderError({
          kind: 'AMOUNT_MISMATCH',
          field: 'currency',
          expected: currency.code,
        })
      }
      const total = BigInt(row.total_minor)
      if (parseMinor(request.amount, currency.decimals) !== total) {
        throw new OrderError({
          kind: 'AMOUNT_MISMATCH',
          field: 'amount',
          expected: fromMinor(total, currency.decimals),
        })
      }
      const id = uuidv7()
      await insertBankTransfer(trx, {
        id,
        tenantId: row.tenant_id,
        orderId: row.id,
        reference,
        amountMinor: total,
        currencyUuid: currency.uuid,
        senderName: request.senderName ?? null,
        senderIban: request.senderIban ?? null,
        at: now,
      })
      // The sender first: the completion's event names who sent the money, from the item.
      await activity.depositSender(trx, row, {
        name: request.senderName ?? null,
        iban: request.senderIban ?? null,
      })
      const completed = await moveOrder(trx, row, 'bank_in', 'COMPLETE', null, now)
      await tellOrder(money, completed, 'COMPLETE')
      const wallet = await walletAccounts(trx, row.tenant_id, row.wallet_id)
      if (!wallet) throw new Error(`wallet ${row.wallet_id} has no ledger accounts`)
      // Last: the balance rows stay locked from here to the commit.
      await money.post({
        kind: 'order_received',
        idempotencyKey: `order:${row.id}:received`,
        postings: receiveLegs(
          {
            external: await systemAccount(trx, row.tenant_id, 'external'),
            user_wallet: wallet.user_wallet,
            fees: await systemAccount(trx, row.tenant_id, 'fees'),
          },
          row.from_currency_uuid,
          factsOf(row),
        ),
      })
      return {
        id,
        reference,
        amount: fromMinor(total, currency.decimals),
        currency: currency.code,
        order_id: row.id,
        received_at: now.toISOString(),
      }
    },
  })
  return answer
}

/** The tenant of the order a deposit reference names, if any. */
async function tenantOf(db: Kysely<DB>, reference: string): Promise<string | undefined> {
  const order = await db
    .selectFrom('orders')
    .select('tenant_id')
    .where('deposit_reference', '=', reference)
    .executeTakeFirst()
  return order?.tenant_id
}

/** An amount as a bank would read it; one with more places than the currency has matches nothing. */
function parseMinor(amount: string, decimals: number): bigint | undefined {
  try {
    return toMinor(amount, decimals)
  } catch (error) {
    if (error instanceof AmountError) return undefined
    throw error
  }
}
