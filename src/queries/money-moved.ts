import type { QueryClient } from '@tanstack/react-query'
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
