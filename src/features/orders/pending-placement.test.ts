import { afterEach, describe, expect, it } from 'vitest'
import { forgetConfirmation, rememberConfirmation } from '../../ui/confirm-once.ts'
import { type PendingPlacement, PLACEMENT_SCOPE, pendingPlacement } from './pending-placement.ts'

const PLACEMENT = {
  order_type: 'WITHDRAWAL_CRYPTO' as const,
  quote_id: '0190b0a4-0000-7000-8000-0000000000f1',
  request_id: '5a3c1e2f-0000-4000-8000-000000000001',
  note: 'Rent',
}
const KEY = 'finplatform.confirm.orders'

const rememberPlacement = ({ request_id, ...body }: PendingPlacement) =>
  rememberConfirmation(PLACEMENT_SCOPE, { choice: body.quote_id, request_id, body })
const forgetPlacement = (requestId: string) => forgetConfirmation(PLACEMENT_SCOPE, requestId)

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

  const stored = (request: string, body: Record<string, unknown>) =>
    JSON.stringify({ choice: PLACEMENT.quote_id, request_id: request, body })
  const { request_id: requestId, ...body } = PLACEMENT
  it.each([
    ['not JSON', '{'],
    ['no request_id', stored('', body)],
    ['an unknown order type', stored(requestId, { ...body, order_type: 'WIRE' })],
    ['a note that is not text', stored(requestId, { ...body, note: 5 })],
    ['no quote', stored(requestId, { ...body, quote_id: '' })],
  ])('is ignored when stored wrong: %s', (_name, value) => {
    sessionStorage.setItem(KEY, value)
    expect(pendingPlacement()).toBeUndefined()
  })
})
