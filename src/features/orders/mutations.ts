import { type QueryClient, useMutation, useQueryClient } from '@tanstack/react-query'
import type { ChainId } from '../../../contract/catalog.ts'
import type { Order, OrderType, PlaceOrderBody } from '../../../contract/orders.ts'
import type { WalletAddress, WalletAddressList } from '../../../contract/wallets.ts'
import { api } from '../../net/api.ts'
import { moneyMoved } from '../../queries/money-moved.ts'
import { walletPath } from '../../queries/wallets.ts'
import { orderKeys, walletKeys } from './queries.ts'

export interface PlaceOrder {
  orderType: OrderType
  body: PlaceOrderBody & { request_id: string }
}

/** An order changed: its detail is known, lists and balances are read again. */
export async function orderChanged(queryClient: QueryClient, order: Order) {
  queryClient.setQueryData(orderKeys.detail(order.id), order)
  await Promise.all([
    queryClient.invalidateQueries({ queryKey: orderKeys.lists() }),
    // Balances (held, released, received), every wallet history, and the
    // card accounts a top-up fills.
    moneyMoved(queryClient),
  ])
}

/**
 * Places a quoted order. The body's `request_id` is the idempotency key: the
 * callers take it from useConfirmOnce (ui/confirm-once.ts), one per quote,
 * written to the tab's storage before it leaves, so a second tap, a retry or
 * a reload after a lost answer names the same order and the server answers
 * the first one again instead of placing another.
 */
export function usePlaceOrder() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: ({ orderType, body }: PlaceOrder) =>
      api.v1.post<Order>(`/orders/${orderType}`, body),
    onSuccess: (order) => orderChanged(queryClient, order),
  })
}

export function useCancelOrder(id: string) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: () => api.v1.post<Order>(`/orders/${encodeURIComponent(id)}/cancel`),
    onSuccess: (order) => orderChanged(queryClient, order),
  })
}

/** A new deposit address, shown at once; the wallet's own screens read theirs again. */
export function useCreateAddress(wallet: string) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (chain: ChainId) =>
      api.v2.post<WalletAddress>(`${walletPath(wallet)}/addresses/${chain}`, {}),
    onSuccess: async (address) => {
      queryClient.setQueryData<WalletAddressList>(
        orderKeys.addresses(wallet, address.chain),
        (list) =>
          list
            ? { ...list, data: [...list.data, address], total: list.total + 1 }
            : { data: [address], total: 1, limit: 1, offset: 0, is_last_page: true },
      )
      await queryClient.invalidateQueries({ queryKey: walletKeys.detail(wallet) })
    },
  })
}
