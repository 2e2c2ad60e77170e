import { type QueryClient, useQueryClient } from '@tanstack/react-query'
import { useEffect, useRef } from 'react'
import type { ActivityItem } from '../../contract/activity.ts'
import { activityKeys } from './activity.ts'
import { walletKeys } from './wallets.ts'

/**
 * The root of every cards query (src/features/cards/queries.ts builds its
 * keys under it): card and fiat-account balances and their histories. Named
 * here because features may not import one another, and the order flow
 * moves money those screens show.
 */
export const cardsRootKey = ['cards'] as const

/**
 * Money moved (an order was placed, settled, failed or canceled; a card's
 * account was topped up): every balance and history that may show it is read
 * again — the wallets', the cards' and the activity feed's.
 */
export async function moneyMoved(queryClient: QueryClient): Promise<void> {
  await Promise.all([
    queryClient.invalidateQueries({ queryKey: walletKeys.all }),
    queryClient.invalidateQueries({ queryKey: cardsRootKey }),
    queryClient.invalidateQueries({ queryKey: activityKeys.all }),
  ])
}

/**
 * Balances follow a feed on screen: whenever what it shows changes (a deposit
 * arrives or confirms, a payment clears — it polls for them), the wallets' and
 * the cards' balances are read again. The server writes an item in the
 * transaction that moves its money, so the balances are final by then. The
 * first answer changes nothing: the balances were read with it.
 */
export function useBalancesFollow(items: readonly ActivityItem[] | undefined): void {
  const queryClient = useQueryClient()
  const signature = items?.map((item) => `${item.id}:${item.status}:${item.updated_at}`).join()
  const seen = useRef(signature)
  useEffect(() => {
    if (signature === undefined || signature === seen.current) return
    const first = seen.current === undefined
    seen.current = signature
    if (first) return
    void queryClient.invalidateQueries({ queryKey: walletKeys.all })
    void queryClient.invalidateQueries({ queryKey: cardsRootKey })
  }, [signature, queryClient])
}
