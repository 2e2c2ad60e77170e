import type { OrderType } from '../../../contract/orders.ts'
import { pendingConfirmation } from '../../ui/confirm-once.ts'
import { ORDER_TYPES } from './labels.ts'

/**
 * A confirmation sent whose answer has not arrived (yet): what is needed to
 * send it again under the same idempotency key. Nothing secret: ids and the
 * person's own note.
 */
export interface PendingPlacement {
  order_type: OrderType
  quote_id: string
  request_id: string
  note?: string
}

/**
 * The orders' confirm-once scope (ui/confirm-once.ts): one key per quote, the
 * quote id being the choice; the stored body is the order to place.
 */
export const PLACEMENT_SCOPE = 'orders'

export type PlacementBody = Omit<PendingPlacement, 'request_id'>

const isPlacementBody = (body: unknown): body is PlacementBody => {
  if (typeof body !== 'object' || body === null) return false
  const value = body as Record<string, unknown>
  return (
    ORDER_TYPES.includes(value.order_type as OrderType) &&
    typeof value.quote_id === 'string' &&
    value.quote_id !== '' &&
    (value.note === undefined || typeof value.note === 'string')
  )
}

/** The confirmation still waiting for an answer in this tab, if any. */
export function pendingPlacement(): PendingPlacement | undefined {
  const pending = pendingConfirmation(PLACEMENT_SCOPE, isPlacementBody)
  if (!pending) return undefined
  const { order_type, quote_id, note } = pending.body
  return {
    order_type,
    quote_id,
    request_id: pending.request_id,
    ...(note !== undefined && { note }),
  }
}
