import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { renderHook } from '@testing-library/react'
import type { ReactNode } from 'react'
import { describe, expect, it, vi } from 'vitest'
import type { ActivityItem } from '../../contract/activity.ts'
import { cardsRootKey, useBalancesFollow } from './money-moved.ts'
import { walletKeys } from './wallets.ts'

const item = (status: ActivityItem['status'], updated_at = '2026-11-12T10:00:00Z') =>
  ({ id: 'a1', status, updated_at }) as ActivityItem

describe('balances follow the feed on screen', () => {
  it('read the balances again when an item changes, not on the first answer nor on a same one', () => {
    const queryClient = new QueryClient()
    const invalidate = vi.spyOn(queryClient, 'invalidateQueries').mockResolvedValue()
    const wrapper = (props: { children: ReactNode }) => (
      <QueryClientProvider client={queryClient}>{props.children}</QueryClientProvider>
    )
    const { rerender } = renderHook(
      (props: { items?: ActivityItem[] }) => useBalancesFollow(props.items),
      { wrapper, initialProps: { items: undefined as ActivityItem[] | undefined } },
    )
    rerender({ items: [item('pending')] })
    rerender({ items: [item('pending')] })
    expect(invalidate).not.toHaveBeenCalled()

    rerender({ items: [item('complete', '2026-11-12T10:01:00Z')] })
    expect(invalidate).toHaveBeenCalledWith({ queryKey: walletKeys.all })
    expect(invalidate).toHaveBeenCalledWith({ queryKey: cardsRootKey })
  })
})
