import type { Kysely } from 'kysely'
import { fromMinor } from '../../../contract/money.ts'
import type { DepositInstructions, Order } from '../../../contract/orders.ts'
import type { DB } from '../../infra/db/schema.ts'
import type { Catalog, OrderDeps, Trx } from './order-deps.ts'
import { feeLines, moneySide } from './quote-view.ts'
import type { EventRow, OrderRow } from './repository.ts'
import * as repo from './repository.ts'
import { railOf } from './rules.ts'

/**
 * The order as the API answers it; `known` spares the reads a list did once
 * for its page. The catalogue comes from the caller, who read it before
 * opening any transaction `db` may be.
 */
export async function renderOrder(
  deps: Pick<OrderDeps, 'rails'>,
  db: Kysely<DB> | Trx,
  row: OrderRow,
  catalog: Catalog,
  known: { timeline?: readonly EventRow[]; beneficiary?: string } = {},
): Promise<Order> {
  const from = catalog.get(row.from_currency_uuid)!
  const to = catalog.get(row.to_currency_uuid)!
  const timeline = known.timeline ?? (await repo.findEvents(db, [row.id]))
  const rail = railOf(row.order_type, row.target)
  const total = fromMinor(BigInt(row.total_minor), from.decimals)
  let instructions: DepositInstructions | null = null
  if (rail === 'bank_in' && row.deposit_reference) {
    const account = deps.rails.bank.collectionAccount(
      row.order_type === 'DEPOSIT_FIAT_SEPA' ? 'SEPA' : 'SWIFT',
      from.code,
    )
    instructions = {
      beneficiary: known.beneficiary ?? (await repo.tenantName(db, row.tenant_id)),
      iban: account.iban,
      account_number: account.accountNumber,
      bic: account.bic,
      bank_name: account.bankName,
      bank_address: account.bankAddress,
      reference: row.deposit_reference,
      amount: total,
      currency: from.code,
    }
  }
  return {
    id: row.id,
    order_type: row.order_type,
    status: row.status,
    wallet_uuid: row.wallet_id,
    quote_id: row.quote_id,
    request_id: row.request_id,
    from: moneySide(from, row.amount_from_minor),
    to: moneySide(to, row.amount_to_minor),
    rate: row.rate,
    fees: feeLines(row.fees, from),
    total,
    target: row.target,
    note: row.note,
    deposit_instructions: instructions,
    tx_hash: row.tx_hash,
    failure_code: row.failure_code,
    timeline: timeline.map((event) => ({
      status: event.status,
      code: event.code,
      at: event.at.toISOString(),
      note: event.note,
    })),
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  }
}
