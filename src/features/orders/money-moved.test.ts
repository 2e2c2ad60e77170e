import { QueryClient } from '@tanstack/react-query'
import { describe, expect, it } from 'vitest'
import { anOrder } from '../../../tests/support/builders.ts'
import { orderChanged } from './mutations.ts'

describe('an order that changed', () => {
  it('has wallet and card-account balances, histories and the activity feed read again', async () => {
    const queryClient = new QueryClient()
    // Keys as the wallets and cards features build them (a card account's detail and history).
    const keys = [
      ['wallets', 'detail', 'w1'],
      ['cards', 'fiat-account', 'a1'],
      ['cards', 'transactions', 'account', 'a1'],
      // The activity feed, as src/queries/activity.ts keys it.
      ['activity', 'feed', { wallet_uuid: 'w1' }],
    ]
    for (const key of keys) queryClient.setQueryData(key, {})
    await orderChanged(queryClient, anOrder({ order_type: 'TRANSFER_CARD_PREPAID' }))
    for (const key of keys) {
      expect(queryClient.getQueryState(key)?.isInvalidated, key.join('/')).toBe(true)
    }
  })
})
