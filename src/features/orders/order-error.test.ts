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
  ] as const)('%#: %s', (error, message, recovery) => {
    expect(orderProblem(error, t as never, 'en')).toMatchObject({ message, recovery })
  })

  it('points at the history when the quote already placed an order', () => {
    expect(orderProblem(apiError(409, 'QUOTE_USED'), t as never, 'en').seeHistory).toBe(true)
    expect(orderProblem(apiError(422, 'QUOTE_EXPIRED'), t as never, 'en').seeHistory).toBe(false)
  })
})

describe('why there is no quote', () => {
  const refused = (code: string, field: string) =>
    apiError(422, code, { errors: [{ field, message: 'bad' }] })
  it.each([
    [refused('AMOUNT_TOO_SMALL', '/querystring/amount_from'), 'orders.error.AMOUNT_TOO_SMALL'],
    [refused('AMOUNT_TOO_LARGE', '/querystring/amount_to'), 'orders.error.AMOUNT_TOO_LARGE'],
    [refused('ADDRESS_INVALID', '/querystring/address'), 'orders.error.address'],
    [refused('CHAIN_MISMATCH', '/querystring/destination_id'), 'orders.error.CHAIN_MISMATCH'],
    [refused('VALIDATION_FAILED', '/querystring/amount_from'), 'orders.error.amount'],
    [refused('VALIDATION_FAILED', '/querystring/address'), 'orders.error.address'],
    [refused('VALIDATION_FAILED', '/querystring/to_uuid'), 'error.VALIDATION_FAILED'],
    [apiError(502, 'RATES_UNAVAILABLE'), 'error.status.502'],
  ] as const)('%#: %s', (error, message) => {
    expect(quoteProblem(error, t as never, 'en')).toBe(message)
  })
})
