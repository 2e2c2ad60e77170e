import { afterEach, describe, expect, it } from 'vitest'
import type { Problem } from '../../../contract/problem.ts'
import { ApiError } from '../../net/api.ts'
import {
  forgetPlacement,
  isDefiniteRefusal,
  pendingPlacement,
  rememberPlacement,
} from './pending-placement.ts'

const PLACEMENT = {
  order_type: 'WITHDRAWAL_CRYPTO' as const,
  quote_id: '0190b0a4-0000-7000-8000-0000000000f1',
  request_id: '5a3c1e2f-0000-4000-8000-000000000001',
  note: 'Rent',
}
const KEY = 'finplatform.orders.pending-placement'

afterEach(() => sessionStorage.clear())

describe('a confirmation waiting for its answer', () => {
  it('is kept in the tab’s session storage, never in local storage', () => {
    rememberPlacement(PLACEMENT)
    expect(pendingPlacement()).toEqual(PLACEMENT)
    expect(localStorage.getItem(KEY)).toBeNull()
  })

  it('is forgotten only for its own request_id: a newer one stays', () => {
    rememberPlacement(PLACEMENT)
    forgetPlacement('another-request')
    expect(pendingPlacement()).toEqual(PLACEMENT)
    forgetPlacement(PLACEMENT.request_id)
    expect(pendingPlacement()).toBeUndefined()
  })

  it.each([
    ['not JSON', '{'],
    ['no request_id', JSON.stringify({ ...PLACEMENT, request_id: '' })],
    ['an unknown order type', JSON.stringify({ ...PLACEMENT, order_type: 'WIRE' })],
    ['a note that is not text', JSON.stringify({ ...PLACEMENT, note: 5 })],
  ])('is ignored when stored wrong: %s', (_name, stored) => {
    sessionStorage.setItem(KEY, stored)
    expect(pendingPlacement()).toBeUndefined()
  })
})

describe('which answers settle whether an order was placed', () => {
  const answer = (status: number) =>
    new ApiError(status, { type: 'about:blank', title: 'x', status, code: 'X' } as Problem)
  it.each([
    [answer(422), true],
    [answer(409), true],
    [answer(404), true],
    [answer(401), true],
    [answer(429), false],
    [answer(408), false],
    [answer(500), false],
    [answer(503), false],
    [new TypeError('Failed to fetch'), false],
    [new DOMException('late', 'TimeoutError'), false],
  ])('%#: %s → %s', (error, definite) => {
    expect(isDefiniteRefusal(error)).toBe(definite)
  })
})
