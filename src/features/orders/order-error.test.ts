import { describe, expect, it } from 'vitest'
import type { Problem } from '../../../contract/problem.ts'
import { ApiError } from '../../net/api.ts'
import { orderProblem, quoteProblem } from './order-error.ts'

const t = (key: string) => key
const apiError = (status: number, code?: string, extra: Partial<Problem> = {}) =>
  new ApiError(status, {
    type: 'about:blank',
    title: 'Problem',
    status,
    ...(code && { code }),
    detail: 'English detail',
    ...extra,
  } as Problem)

describe('what a refused or lost order means', () => {
  it.each([
    [apiError(422, 'INSUFFICIENT_FUNDS'), 'orders.error.INSUFFICIENT_FUNDS', 'edit'],
    [apiError(422, 'QUOTE_EXPIRED'), 'orders.error.QUOTE_EXPIRED', 'requote'],
    [apiError(409, 'QUOTE_USED'), 'orders.error.QUOTE_USED', 'requote'],
    [apiError(409, 'IDEMPOTENCY_CONFLICT'), 'orders.error.IDEMPOTENCY_CONFLICT', 'requote'],
    [apiError(500), 'error.status.500', 'retry'],
    [apiError(503), 'error.status.503', 'retry'],
    [new TypeError('Failed to fetch'), 'error.network', 'retry'],
    [new DOMException('late', 'TimeoutError'), 'error.timeout', 'retry'],
    [apiError(422, 'VALIDATION_FAILED'), 'error.VALIDATION_FAILED', 'edit'],
    [apiError(404), 'error.status.404', 'edit'],
    // Edited after the quote: the new details need a new price; deleted: another recipient.
    [apiError(422, 'DESTINATION_CHANGED'), 'orders.error.DESTINATION_CHANGED', 'requote'],
    [apiError(422, 'DESTINATION_NOT_FOUND'), 'orders.error.destinationDeleted', 'edit'],
  ] as const)('%#: %s', (error, message, recovery) => {
    expect(orderProblem(error, t as never, 'en')).toMatchObject({ message, recovery })
  })

  it('points at the history when the quote already placed an order', () => {
    expect(orderProblem(apiError(409, 'QUOTE_USED'), t as never, 'en').seeHistory).toBe(true)
    expect(orderProblem(apiError(422, 'QUOTE_EXPIRED'), t as never, 'en').seeHistory).toBe(false)
  })
})

describe('why there is no quote', () => {
  const refused = (code: string, field: string, extra: Partial<Problem> = {}) =>
    apiError(422, code, { errors: [{ field, message: 'bad' }], ...extra })
  it.each([
    [
      refused('AMOUNT_TOO_SMALL', '/querystring/amount_from'),
      { message: 'orders.error.AMOUNT_TOO_SMALL', field: 'amount', retry: false },
    ],
    [
      refused('AMOUNT_TOO_LARGE', '/querystring/amount_to'),
      { message: 'orders.error.AMOUNT_TOO_LARGE', field: 'amount', retry: false },
    ],
    [
      refused('ADDRESS_INVALID', '/querystring/address'),
      { message: 'orders.error.address', field: 'address', retry: false },
    ],
    [
      refused('CHAIN_MISMATCH', '/querystring/destination_id'),
      { message: 'orders.error.CHAIN_MISMATCH', field: 'destination', retry: false },
    ],
    [
      refused('TARGET_IS_SOURCE', '/querystring/address'),
      { message: 'orders.error.TARGET_IS_SOURCE', field: 'address', retry: false },
    ],
    [
      refused('DESTINATION_TYPE_MISMATCH', '/querystring/destination_id'),
      { message: 'orders.error.DESTINATION_TYPE_MISMATCH', field: 'destination', retry: false },
    ],
    [
      refused('CURRENCY_NOT_ALLOWED', '/querystring/from_uuid'),
      { message: 'orders.error.CURRENCY_NOT_ALLOWED', field: undefined, retry: false },
    ],
    // A destination deleted since the form read it: 404, no field named, still the destination's.
    [
      apiError(404, 'DESTINATION_NOT_FOUND'),
      { message: 'orders.error.DESTINATION_NOT_FOUND', field: 'destination', retry: false },
    ],
    [
      refused('VALIDATION_FAILED', '/querystring/amount_from'),
      { message: 'orders.error.amount', field: 'amount', retry: false },
    ],
    [
      refused('VALIDATION_FAILED', '/querystring/address'),
      { message: 'orders.error.address', field: 'address', retry: false },
    ],
    [
      refused('VALIDATION_FAILED', '/querystring/to_uuid'),
      { message: 'error.VALIDATION_FAILED', field: undefined, retry: false },
    ],
    // Only what asking again can fix offers asking again.
    [apiError(502, 'RATES_UNAVAILABLE'), { message: 'error.RATES_UNAVAILABLE', retry: true }],
    [apiError(429, 'RATE_LIMITED'), { retry: true }],
    [new TypeError('Failed to fetch'), { message: 'error.network', retry: true }],
  ] as const)('%#: %s', (error, expected) => {
    expect(quoteProblem(error, t as never, 'en')).toMatchObject(expected)
  })

  it('says the bound an amount crossed, in the currency it is in', () => {
    const words = (key: string, params?: Record<string, unknown>) =>
      `${key} ${JSON.stringify(params ?? {})}`
    const small = refused('AMOUNT_TOO_SMALL', '/querystring/amount_from', {
      limit: { amount: '10', currency: 'USDT' },
    })
    expect(quoteProblem(small, words as never, 'en')).toEqual({
      message: 'orders.error.AMOUNT_TOO_SMALL_limit {"limit":"10\u00a0USDT"}',
      field: 'amount',
      retry: false,
    })
    const large = refused('AMOUNT_TOO_LARGE', '/querystring/amount_to', {
      limit: { amount: '25000', currency: 'EUR' },
    })
    expect(quoteProblem(large, words as never, 'ru').message).toBe(
      'orders.error.AMOUNT_TOO_LARGE_limit {"limit":"25\u00a0000,00\u00a0€"}',
    )
  })
})
