import { describe, expect, it } from 'vitest'
import type { ActivityItem } from '../../../contract/activity.ts'
import { cachedItems, matches } from './offline-search.ts'

const EUR = { currency_uuid: 'e', currency: 'EUR', chain: null, decimals: 2 }
const item = (over: Partial<ActivityItem> & { id: string }): ActivityItem => ({
  type: 'card_purchase',
  status: 'complete',
  direction: 'out',
  wallet_uuid: 'w1',
  counter_wallet_uuid: null,
  card_id: 'c1',
  card_last4: '4242',
  fiat_account_id: 'f1',
  amount: { ...EUR, amount: '12.50' },
  fee: null,
  total: { ...EUR, amount: '12.50' },
  received: null,
  refunded: null,
  channel: null,
  dispute: null,
  rate: null,
  counterparty_name: null,
  merchant: { name: 'Café Einstein', mcc: '5814', city: 'Berlin', country: 'DE' },
  address: null,
  reference: null,
  note: null,
  tx_hash: null,
  confirmations: null,
  required_confirmations: null,
  fee_kind: null,
  failure_code: null,
  source: { type: 'card_transaction', id: over.id, order_type: null },
  created_at: '2026-03-05T10:00:00.000Z',
  updated_at: '2026-03-05T10:00:00.000Z',
  ...over,
})

describe('searching the feed kept on the device', () => {
  const cafe = item({ id: 'a' })
  const rent = item({
    id: 'b',
    type: 'send',
    merchant: null,
    counterparty_name: 'Anna Schmidt',
    amount: { ...EUR, amount: '900.00' },
    status: 'pending',
    note: 'Rent for May',
    created_at: '2026-03-01T08:00:00.000Z',
  })

  it('gathers every kept page, list and item once, newest first', () => {
    const answers = [
      {
        pages: [
          { data: [cafe], next_cursor: 'x', limit: 30 },
          { data: [rent], next_cursor: null, limit: 30 },
        ],
      },
      { data: [cafe], next_cursor: null, limit: 5 },
      undefined,
    ]
    expect(cachedItems(answers).map((found) => found.id)).toEqual(['a', 'b'])
  })

  it.each([
    [{ q: 'einstein' }, ['a']],
    [{ q: 'SCHMIDT' }, ['b']],
    [{ q: 'rent for' }, ['b']],
    [{ q: '4242' }, ['a', 'b']],
    [{ type: 'send' as const }, ['b']],
    [{ status: 'pending' as const }, ['b']],
    [{ currency: 'eur' }, ['a', 'b']],
    [{ min: '100' }, ['b']],
    [{ max: '12.5' }, ['a']],
    [{ min: '12.51', max: '899.99' }, []],
    [{ from: '2026-03-02T00:00:00.000Z' }, ['a']],
    [{ to: '2026-03-05T10:00:00.000Z' }, ['b']],
    [{ wallet_uuid: 'w2' }, []],
  ])('%j → %j', (filters, ids) => {
    expect(
      [cafe, rent].filter((found) => matches(found, filters)).map((found) => found.id),
    ).toEqual(ids)
  })
})
