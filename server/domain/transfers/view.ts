import { fromMinor } from '../../../contract/money.ts'
import type { Transfer } from '../../../contract/transfers.ts'
import type { CurrencyRow, TransferRow } from './repository.ts'
import { contactLabel, initialOf } from './rules.ts'

/**
 * A transfer as one of its people reads it: the sender sees whom it went to
 * (or the contact it waits for), the recipient whom it came from.
 */
export function toTransfer(
  row: TransferRow,
  currency: CurrencyRow,
  viewer: string,
  activityId: string | null,
): Transfer {
  const out = row.sender_id === viewer
  const name = out ? row.recipient_name : row.sender_name
  return {
    id: row.id,
    status: row.status,
    direction: out ? 'out' : 'in',
    wallet_uuid: out ? row.sender_wallet_id : row.recipient_wallet_id!,
    amount: {
      currency_uuid: currency.uuid,
      currency: currency.code,
      chain: currency.chain,
      decimals: currency.decimals,
      amount: fromMinor(BigInt(row.amount_minor), currency.decimals),
    },
    note: row.note,
    counterparty: {
      name,
      initial: initialOf(name),
      user_id: out ? row.recipient_id : row.sender_id,
    },
    contact:
      out && row.contact_channel && row.contact
        ? contactLabel(row.contact_channel, row.contact)
        : null,
    payment_request_id: row.payment_request_id,
    expires_at: row.status === 'AWAITING_CLAIM' ? (row.expires_at?.toISOString() ?? null) : null,
    activity_id: activityId,
    created_at: row.created_at.toISOString(),
    settled_at: row.settled_at?.toISOString() ?? null,
  }
}
