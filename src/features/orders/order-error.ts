import type { MessageKey } from '../../i18n/en.ts'
import { errorMessage } from '../../i18n/error-message.ts'
import type { Language, Translate } from '../../i18n/i18n.tsx'
import { formatMoney } from '../../i18n/money.ts'
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
  /** KYC_REQUIRED: the way on is verifying the identity (src/ui/kyc-prompt.tsx). */
  verify?: true
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
    case 'KYC_REQUIRED':
      return { ...plain(t('error.KYC_REQUIRED'), 'edit'), verify: true }
    case 'QUOTE_EXPIRED':
      return plain(t('orders.error.QUOTE_EXPIRED'), 'requote')
    case 'QUOTE_USED':
      return { message: t('orders.error.QUOTE_USED'), recovery: 'requote', seeHistory: true }
    case 'IDEMPOTENCY_CONFLICT':
      return plain(t('orders.error.IDEMPOTENCY_CONFLICT'), 'requote')
    // The saved destination was edited after the quote: the new details need a new price.
    case 'DESTINATION_CHANGED':
      return plain(t('orders.error.DESTINATION_CHANGED'), 'requote')
    // Deleted since the quote: only another recipient helps.
    case 'DESTINATION_NOT_FOUND':
      return plain(t('orders.error.destinationDeleted'), 'edit')
  }
  if (error.status >= 500 || error.status === 429) {
    return plain(errorMessage(error, t, { language }), 'retry')
  }
  return plain(errorMessage(error, t, { language }), 'edit')
}

/** Why the server would not price what was asked (GET /orders/calc codes) with words of their own. */
const QUOTE_CODES: Record<string, MessageKey> = {
  AMOUNT_TOO_SMALL: 'orders.error.AMOUNT_TOO_SMALL',
  AMOUNT_TOO_LARGE: 'orders.error.AMOUNT_TOO_LARGE',
  ADDRESS_INVALID: 'orders.error.address',
  CHAIN_MISMATCH: 'orders.error.CHAIN_MISMATCH',
  DIRECTION_NOT_OFFERED: 'orders.error.DIRECTION_NOT_OFFERED',
  FIAT_ACCOUNT_NOT_ACTIVE: 'orders.error.FIAT_ACCOUNT_NOT_ACTIVE',
  INSUFFICIENT_FUNDS: 'orders.error.INSUFFICIENT_FUNDS',
  DESTINATION_NOT_FOUND: 'orders.error.DESTINATION_NOT_FOUND',
  DESTINATION_TYPE_MISMATCH: 'orders.error.DESTINATION_TYPE_MISMATCH',
  TARGET_IS_SOURCE: 'orders.error.TARGET_IS_SOURCE',
  CURRENCY_NOT_ALLOWED: 'orders.error.CURRENCY_NOT_ALLOWED',
}

/** The form field a refused quote is about: where its message goes and where the fix is. */
export type QuoteField = 'amount' | 'address' | 'destination'

/** Codes that name their field even when the problem lists none. */
const CODE_FIELDS: Record<string, QuoteField> = {
  AMOUNT_TOO_SMALL: 'amount',
  AMOUNT_TOO_LARGE: 'amount',
  INSUFFICIENT_FUNDS: 'amount',
  ADDRESS_INVALID: 'address',
  DESTINATION_NOT_FOUND: 'destination',
  DESTINATION_TYPE_MISMATCH: 'destination',
  CHAIN_MISMATCH: 'destination',
}

/** The field a problem's JSON pointer names (`/querystring/address`). */
function fieldOf(pointer: string): QuoteField | undefined {
  if (/\/amount_(from|to)$/.test(pointer)) return 'amount'
  if (pointer.endsWith('/address')) return 'address'
  if (pointer.endsWith('/destination_id')) return 'destination'
  return undefined
}

export interface QuoteProblem {
  message: string
  /** The field to show it on; none when it is about the whole request. */
  field?: QuoteField
  /** Whether asking again can help: a lost answer, a 5xx, a 429 — never a refusal of the input. */
  retry: boolean
}

/**
 * A quote the server would not give, in words, on the field the person can
 * fix: an amount out of bounds (with the bound, from the problem's `limit`),
 * an address not of this network, a destination gone or unfit.
 */
export function quoteProblem(error: unknown, t: Translate, language: Language): QuoteProblem {
  if (!(error instanceof ApiError)) {
    return { message: errorMessage(error, t, { language }), retry: true }
  }
  const retry = error.status >= 500 || error.status === 429
  const pointers = (error.problem?.errors ?? []).map((entry) => entry.field)
  const field =
    pointers.map(fieldOf).find((named) => named !== undefined) ??
    (error.code ? CODE_FIELDS[error.code] : undefined)
  const limit = error.problem?.limit
  if (limit && (error.code === 'AMOUNT_TOO_SMALL' || error.code === 'AMOUNT_TOO_LARGE')) {
    return {
      message: t(`orders.error.${error.code}_limit`, {
        limit: formatMoney(language, { amount: limit.amount, currency: limit.currency }),
      }),
      field,
      retry,
    }
  }
  const known = error.code && QUOTE_CODES[error.code]
  if (known) return { message: t(known), field, retry }
  if (field === 'amount') return { message: t('orders.error.amount'), field, retry }
  if (field === 'address') return { message: t('orders.error.address'), field, retry }
  return { message: errorMessage(error, t, { language }), field, retry }
}
