import type { MessageKey } from '../../i18n/en.ts'
import { errorMessage } from '../../i18n/error-message.ts'
import type { Translate } from '../../i18n/i18n.tsx'
import { ApiError } from '../../net/api.ts'

/** What the review step does after a refused or lost confirmation. */
export type Recovery =
  /** Nothing is known about the order: ask again with the same request_id. */
  | 'retry'
  /** The quote is gone (expired or used): a new one is needed before confirming. */
  | 'requote'
  /** Something in the form must change (the amount, the destination). */
  | 'edit'

export interface OrderProblem {
  message: string
  recovery: Recovery
  /** QUOTE_USED: the order this quote placed may be in the history already. */
  seeHistory: boolean
}

/**
 * A refused or lost order in the person's words, and what can be done next.
 * A lost answer (no connection, a timeout, a 5xx) says nothing about whether
 * the order was placed: only retrying with the same request_id is safe, and
 * the server's idempotency answers the first order again if there was one.
 */
export function orderProblem(error: unknown, t: Translate, language: string): OrderProblem {
  const plain = (message: string, recovery: Recovery): OrderProblem => ({
    message,
    recovery,
    seeHistory: false,
  })
  if (!(error instanceof ApiError)) return plain(errorMessage(error, t, { language }), 'retry')
  switch (error.code) {
    case 'INSUFFICIENT_FUNDS':
      return plain(t('orders.error.INSUFFICIENT_FUNDS'), 'edit')
    case 'QUOTE_EXPIRED':
      return plain(t('orders.error.QUOTE_EXPIRED'), 'requote')
    case 'QUOTE_USED':
      return { message: t('orders.error.QUOTE_USED'), recovery: 'requote', seeHistory: true }
    case 'IDEMPOTENCY_CONFLICT':
      return plain(t('orders.error.IDEMPOTENCY_CONFLICT'), 'requote')
  }
  if (error.status >= 500 || error.status === 429) {
    return plain(errorMessage(error, t, { language }), 'retry')
  }
  return plain(errorMessage(error, t, { language }), 'edit')
}

/** Why the server would not price what was asked (GET /orders/calc 422 codes) with words of their own. */
const QUOTE_CODES: Record<string, MessageKey> = {
  AMOUNT_TOO_SMALL: 'orders.error.AMOUNT_TOO_SMALL',
  AMOUNT_TOO_LARGE: 'orders.error.AMOUNT_TOO_LARGE',
  ADDRESS_INVALID: 'orders.error.address',
  CHAIN_MISMATCH: 'orders.error.CHAIN_MISMATCH',
  DIRECTION_NOT_OFFERED: 'orders.error.DIRECTION_NOT_OFFERED',
  FIAT_ACCOUNT_NOT_ACTIVE: 'orders.error.FIAT_ACCOUNT_NOT_ACTIVE',
  INSUFFICIENT_FUNDS: 'orders.error.INSUFFICIENT_FUNDS',
}

/**
 * A quote the server would not give, in words: the person's input is why
 * (an amount out of bounds, an address not of this network). Failing a known
 * code, the field it names (`/querystring/address`) says what to look at.
 */
export function quoteProblem(error: unknown, t: Translate, language: string): string {
  if (error instanceof ApiError) {
    const known = error.code && QUOTE_CODES[error.code]
    if (known) return t(known)
    const fields = (error.problem?.errors ?? []).map((entry) => entry.field)
    if (fields.some((field) => /\/amount_(from|to)$/.test(field))) return t('orders.error.amount')
    if (fields.some((field) => field.endsWith('/address'))) return t('orders.error.address')
  }
  return errorMessage(error, t, { language })
}
