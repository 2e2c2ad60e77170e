import type { OrderType } from '../../../contract/orders.ts'
import { ApiError } from '../../net/api.ts'
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
 * sessionStorage, not localStorage: it belongs to this tab (another tab has
 * its own), survives a reload and a killed-and-restored PWA page, and is gone
 * with the tab. A duplicated tab copies it — harmless, as sending it again
 * under the same request_id places nothing new.
 */
const KEY = 'finplatform.orders.pending-placement'

/** Written BEFORE the POST leaves: a reload at any moment after finds it. */
export function rememberPlacement(placement: PendingPlacement) {
  try {
    sessionStorage.setItem(KEY, JSON.stringify(placement))
  } catch {
    // Storage refused (private mode, quota): the tab's own retry still uses the same request_id.
  }
}

export function forgetPlacement(requestId: string) {
  try {
    // Only the one answered: a newer confirmation may have replaced it meanwhile.
    if (pendingPlacement()?.request_id === requestId) sessionStorage.removeItem(KEY)
  } catch {
    // Nothing stored, nothing to forget.
  }
}

/** The confirmation still waiting for an answer in this tab, if any. */
export function pendingPlacement(): PendingPlacement | undefined {
  let parsed: unknown
  try {
    parsed = JSON.parse(sessionStorage.getItem(KEY) ?? 'null')
  } catch {
    return undefined
  }
  if (typeof parsed !== 'object' || parsed === null) return undefined
  const value = parsed as Record<string, unknown>
  const text = (field: unknown) => typeof field === 'string' && field !== ''
  if (
    !ORDER_TYPES.includes(value.order_type as OrderType) ||
    !text(value.quote_id) ||
    !text(value.request_id) ||
    (value.note !== undefined && typeof value.note !== 'string')
  ) {
    return undefined
  }
  return {
    order_type: value.order_type as OrderType,
    quote_id: value.quote_id as string,
    request_id: value.request_id as string,
    ...(typeof value.note === 'string' && { note: value.note }),
  }
}

/**
 * Whether an answer settles the question "was it placed?": a 2xx does, and
 * so does a refusal (4xx) — the server refused before placing anything. A
 * lost answer, a timeout (or 408), a 5xx or a 429 (not looked at yet) leave it open.
 */
export const isDefiniteRefusal = (error: unknown) =>
  error instanceof ApiError &&
  error.status >= 400 &&
  error.status < 500 &&
  error.status !== 408 &&
  error.status !== 429
